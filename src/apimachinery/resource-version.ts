/**
 * Comparing resourceVersions. Kubernetes makes them opaque strings; every server kubeforge meets (etcd's
 * revisions, the local cluster's counter) writes them as decimal integers, which this compares by their digits
 * (leading zeros aside, the longer is the larger) without a RegExp or a BigInt per call, as the cache checks
 * one per watch event. Anything else is not comparable: callers then assume nothing about the order.
 */

/**
 * -1, 0 or 1 as `a` is below, equal to or above `b`; undefined when either is absent or not a decimal integer
 * (opaque: not comparable).
 */
export function compareResourceVersions(a: string | undefined, b: string | undefined): -1 | 0 | 1 | undefined {
  if (!a || !b) return undefined;
  const aStart = significantStart(a);
  const bStart = significantStart(b);
  if (aStart < 0 || bStart < 0) return undefined;
  const aLength = a.length - aStart;
  const bLength = b.length - bStart;
  if (aLength !== bLength) return aLength < bLength ? -1 : 1;
  // Same length, no leading zeros (the usual case): the strings order as the numbers.
  if (aStart === 0 && bStart === 0) return a === b ? 0 : a < b ? -1 : 1;
  for (let i = 0; i < aLength; i++) {
    const ca = a.charCodeAt(aStart + i);
    const cb = b.charCodeAt(bStart + i);
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
  return 0;
}

/** Whether `rv` is a resourceVersion `compareResourceVersions` can order (a decimal integer). */
export function isComparableResourceVersion(rv: string | undefined): rv is string {
  return !!rv && significantStart(rv) >= 0;
}

/** The index of the first significant digit (the last digit for "0…0"); -1 when `digits` has a non-digit. */
function significantStart(digits: string): number {
  const n = digits.length;
  let start = 0;
  while (start < n - 1 && digits.charCodeAt(start) === 48) start++;
  for (let i = start; i < n; i++) {
    const c = digits.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return start;
}
