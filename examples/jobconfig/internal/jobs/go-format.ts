/**
 * Go's text forms that Furiko puts into messages: `time.Duration.String()` ("10m0s") and `time.Time.String()`
 * in UTC ("2024-01-15 10:30:00 +0000 UTC"), so condition and task messages read exactly as upstream's.
 */
import { formatGoDuration } from 'kubeforge/runtime';

/** Go's Duration.String() for a whole number of seconds: `0s`, `45s`, `10m0s`, `1h0m0s`, `-5s` (kubeforge/runtime's formatGoDuration). */
export function goDurationSeconds(totalSeconds: number): string {
  return formatGoDuration(Math.trunc(totalSeconds) * 1000);
}

/** Go's Time.String() of a UTC instant at one-second precision: `2024-01-15 10:30:00 +0000 UTC`. */
export function goTimeUtc(ms: number): string {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`;
}

/** RFC 3339 at one-second precision with `Z`, as the API server stores `metav1.Time`. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
