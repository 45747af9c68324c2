/**
 * Legacy token tracking (LegacyServiceAccountTokenTracking, on in 1.32): when a Secret-based
 * service-account token authenticates, the API server labels its Secret with the day of use
 * (`kubernetes.io/legacy-token-last-used: YYYY-MM-DD`, UTC) unless it already says today or tomorrow.
 */
import type { KubeObject } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';

export const lastUsedLabel = 'kubernetes.io/legacy-token-last-used';

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function markLegacyTokenUsed(client: ControllerClient, secret: Readonly<KubeObject>, nowMs: number): void {
  const today = day(nowMs);
  const lastUsed = secret.metadata.labels?.[lastUsedLabel];
  if (lastUsed === today || lastUsed === day(nowMs + 24 * 3600_000)) return;
  client.mergePatch('secrets', secret.metadata.namespace, secret.metadata.name, { metadata: { uid: secret.metadata.uid, labels: { [lastUsedLabel]: today } } });
}
