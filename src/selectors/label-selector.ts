/**
 * Label selectors in their query-string form (`a=b,c!=d,e in (x,y),!f,g>3`), parsed into
 * requirements and matched against an object's labels, as apimachinery's `labels.Parse` does. Pure code
 * shared by the local cluster (list/watch/admission/aggregation) and the runtime's cache reads.
 */

/** A selector that does not parse; the message is apimachinery's. */
export class LabelSelectorSyntaxError extends Error {
  override readonly name = 'LabelSelectorSyntaxError';
}

type Operator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | '>' | '<';

export interface LabelRequirement {
  key: string;
  op: Operator;
  values: string[];
}

export type LabelSelector = LabelRequirement[];

/** Splits on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (!text) return [];
  return splitTerms(text).map(parseTerm);
}

function parseTerm(term: string): LabelRequirement {
  let m: RegExpExecArray | null;
  if ((m = /^!\s*([^\s=!<>(),]+)$/.exec(term))) return { key: m[1]!, op: '!', values: [] };
  if ((m = /^([^\s=!<>(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term))) {
    return { key: m[1]!, op: m[2] as Operator, values: m[3]!.split(',').map((v) => v.trim()).filter((v) => v !== '') };
  }
  if ((m = /^([^\s=!<>(),]+)\s*(==|=|!=|>|<)\s*([^\s=!<>(),]*)$/.exec(term))) {
    const op = m[2] === '==' ? '=' : (m[2] as Operator);
    if ((op === '>' || op === '<') && !/^-?\d+$/.test(m[3]!)) {
      throw new LabelSelectorSyntaxError(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`);
    }
    return { key: m[1]!, op, values: [m[3]!] };
  }
  if ((m = /^([^\s=!<>(),]+)$/.exec(term))) return { key: m[1]!, op: 'exists', values: [] };
  throw new LabelSelectorSyntaxError(`unable to parse requirement: found '${term}', expected: identifier`);
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return selector.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=':
        return has && v === r.values[0];
      case '!=':
        return !has || v !== r.values[0];
      case 'in':
        return has && r.values.includes(v!);
      case 'notin':
        return !has || !r.values.includes(v!);
      case 'exists':
        return has;
      case '!':
        return !has;
      case '>':
        return has && /^-?\d+$/.test(v!) && Number(v) > Number(r.values[0]);
      case '<':
        return has && /^-?\d+$/.test(v!) && Number(v) < Number(r.values[0]);
    }
  });
}

/** A metav1.LabelSelector (matchLabels/matchExpressions) rendered in the query form. */
export function labelSelectorToString(selector: { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> } | undefined): string {
  if (!selector) return '';
  // As apimachinery's LabelSelectorAsSelector(...).String(): requirements sorted by key, set values sorted.
  const parts: { key: string; text: string }[] = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => ({ key: k, text: `${k}=${v}` }));
  const values = (e: { values?: string[] }): string => [...(e.values ?? [])].sort().join(',');
  for (const e of selector.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push({ key: e.key, text: `${e.key} in (${values(e)})` });
    else if (e.operator === 'NotIn') parts.push({ key: e.key, text: `${e.key} notin (${values(e)})` });
    else if (e.operator === 'Exists') parts.push({ key: e.key, text: e.key });
    else if (e.operator === 'DoesNotExist') parts.push({ key: e.key, text: `!${e.key}` });
  }
  return parts
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((p) => p.text)
    .join(',');
}
