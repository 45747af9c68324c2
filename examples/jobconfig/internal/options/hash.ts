/**
 * The option-spec hash a Job records in `execution.furiko.io/option-spec-hash`: a deterministic hex digest
 * of the parts of an OptionSpec that affect evaluation (labels dropped, options sorted by name, unset and
 * zero fields ignored), so two specs that evaluate alike hash alike. FNV-1 64 over canonical JSON; not
 * bit-identical to Furiko's hashstructure digest (the value is compared, never interpreted).
 */
import type { OptionSpec } from '../../api/v1alpha1/jobconfig_types.js';
import { fnv1_64 } from '../jobs/index-hash.js';
import { withoutZeroValues } from '../validation/semantic-equal.js';

/** The hex hash of `spec` (an absent spec hashes like an empty one). */
export function hashOptionSpec(spec: OptionSpec | undefined): string {
  const options = [...(spec?.options ?? [])]
    .map(({ label: _label, ...rest }) => withoutZeroValues(rest) ?? {})
    .sort((a, b) => {
      const nameA = String((a as { name?: string }).name ?? '');
      const nameB = String((b as { name?: string }).name ?? '');
      return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
    });
  const text = JSON.stringify({ options });
  return fnv1_64(new TextEncoder().encode(text)).toString(16);
}
