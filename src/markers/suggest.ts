/**
 * "Did you mean" for marker and argument names: the closest candidate by edit distance, when it is
 * close enough to be a plausible typo (or differs only in letter case).
 */

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate closest to `name` if it is within `maxDistance` edits, or equal ignoring case;
 * ties go to the earlier candidate.
 */
export function closestName(name: string, candidates: Iterable<string>, maxDistance = 3): { name: string; distance: number } | undefined {
  let best: { name: string; distance: number } | undefined;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = candidate.toLowerCase() === lower ? 0.5 : editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= maxDistance ? best : undefined;
}
