/**
 * Label selectors for cache reads: a string in the API server's syntax (`a=b`, `a!=b`, `a in (x,y)`,
 * `a notin (x)`, `a`, `!a`, `a>3`, comma-separated) or a map of required labels, as a matcher function.
 * Parsing and matching are the shared code the local cluster also uses (src/selectors).
 */
import { matchesLabels, parseLabelSelector as parse } from '../../selectors/label-selector.js';

export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

export function parseLabelSelector(selector: string | Record<string, string> | undefined): LabelMatcher {
  if (selector === undefined) return () => true;
  if (typeof selector !== 'string') {
    const pairs = Object.entries(selector);
    return (labels) => pairs.every(([k, v]) => labels?.[k] === v);
  }
  const requirements = parse(selector);
  return (labels) => matchesLabels(requirements, labels);
}
