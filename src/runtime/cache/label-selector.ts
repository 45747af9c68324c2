/**
 * Label selectors for cache reads, in the API server's string syntax: `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-separated (all must hold).
 */

export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

type Requirement = (labels: Record<string, string>) => boolean;

export function parseLabelSelector(selector: string | Record<string, string> | undefined): LabelMatcher {
  if (selector === undefined) return () => true;
  if (typeof selector !== 'string') {
    const pairs = Object.entries(selector);
    return (labels) => pairs.every(([k, v]) => labels?.[k] === v);
  }
  const requirements = splitTerms(selector).map(parseRequirement);
  return (labels) => requirements.every((req) => req(labels ?? {}));
}

/** Splits on commas that are not inside `( … )`. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms.map((t) => t.trim()).filter((t) => t.length > 0);
}

function parseRequirement(term: string): Requirement {
  const setMatch = /^([^\s!=]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (setMatch) {
    const [, key, op, list] = setMatch as unknown as [string, string, string, string];
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in' ? (l) => key in l && values.has(l[key]!) : (l) => !(key in l) || !values.has(l[key]!);
  }
  const eq = /^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (eq) {
    const [, key, op, value] = eq as unknown as [string, string, string, string];
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  if (/^![^\s!=]+$/.test(term)) {
    const key = term.slice(1);
    return (l) => !(key in l);
  }
  if (/^[^\s!=(),]+$/.test(term)) return (l) => term in l;
  throw new Error(`invalid label selector term ${JSON.stringify(term)}`);
}
