/** The 403 an admission plugin refuses with (admission.NewForbidden): `<resource> "<name>" is forbidden: <reason>`. */
import { type ApiError, forbidden, qualified } from '../../errors/status-errors.js';
import type { AdmissionRequest } from '../admission-chain.js';

export function admissionForbidden(request: AdmissionRequest, reasons: string[]): ApiError {
  const qr = { group: request.rt.group, resource: request.rt.resource };
  const reason = reasons.length === 1 ? reasons[0] : `[${reasons.join(', ')}]`;
  const name = request.name || 'Unknown';
  return forbidden(`${qualified(qr)} "${name}" is forbidden: ${reason}`, qr, name);
}
