/**
 * Bad values as Furiko's `field.Error`s print them: apimachinery renders a value through its Go type — a
 * nil pointer as `"null"`, a `*metav1.Time` through `time.Time.String()` (UTC in Furiko's container), and
 * other structs and maps in Go syntax (`%#v`). These wrap such values for `formatValue`.
 */
import { field } from 'kubeforge/runtime';
import { goTimeUtc } from '../jobs/go-format.js';

/**
 * A value whose text Go prints unquoted (a `fmt.Stringer` or `%#v`): the shared field-error module's
 * already-rendered value. Decoded JSON/YAML values (what option values are) need no wrapper: the module
 * renders them as Go's `%#v` of an `interface{}` (`map[string]interface {}{…}`, `[]interface {}{…}`).
 */
export const GoRendered = field.GoSyntaxValue;
export type GoRendered = field.GoSyntaxValue;

const goQuote = field.goQuote;

/** A `*metav1.Time`: Go's `2024-01-15 10:06:00 +0000 UTC`, or nil. */
export function goTime(iso: string | undefined): GoRendered | null {
  return iso ? new GoRendered(goTimeUtc(Date.parse(iso))) : null;
}

/** A `map[string]string` in `%#v`: keys sorted, `map[string]string(nil)` when absent. */
export function goStringMap(map: Record<string, string> | undefined): GoRendered {
  if (!map) return new GoRendered('map[string]string(nil)');
  const entries = Object.keys(map)
    .sort()
    .map((key) => `${goQuote(key)}:${goQuote(map[key]!)}`);
  return new GoRendered(`map[string]string{${entries.join(', ')}}`);
}

/**
 * A `*StartPolicySpec` in `%#v` (nil when absent). A set `startAfter` is a pointer Go prints as a heap
 * address no port can reproduce; it is shown as that time's String() instead.
 */
export function goStartPolicy(policy: { concurrencyPolicy?: string; startAfter?: string } | undefined): GoRendered | null {
  if (!policy) return null;
  const startAfter = policy.startAfter ? `(*v1.Time)(${goTimeUtc(Date.parse(policy.startAfter))})` : '(*v1.Time)(nil)';
  return new GoRendered(`v1alpha1.StartPolicySpec{ConcurrencyPolicy:${goQuote(policy.concurrencyPolicy ?? '')}, StartAfter:${startAfter}}`);
}
