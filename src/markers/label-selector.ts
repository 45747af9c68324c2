/**
 * The label-selector syntax of the webhook marker's namespaceSelector= and objectSelector= arguments:
 * `matchLabels~key=value.key2=value2` and `matchExpressions~key=k.operator=In.values=a|b`, joined by `&`.
 * The reader turns it into the model's LabelSelector (src/reader/controller-declarations.ts).
 */
import type { LabelSelector } from '../model/index.js';

export type { LabelSelector } from '../model/index.js';

/** Parses the selector text; throws an Error with a message naming the bad part. */
export function parseLabelSelector(text: string): LabelSelector | undefined {
  if (text === '') return undefined;
  const selector: LabelSelector = {};
  for (const part of text.split('&')) {
    const tilde = part.indexOf('~');
    const kind = tilde < 0 ? '' : part.slice(0, tilde);
    const spec = part.slice(tilde + 1);
    if (kind === 'matchLabels') {
      selector.matchLabels ??= {};
      for (const pair of spec.split('.')) {
        const equals = pair.indexOf('=');
        if (equals <= 0) throw new Error(`matchLabels entry ${JSON.stringify(pair)} is not in key=value form`);
        selector.matchLabels[pair.slice(0, equals)] = pair.slice(equals + 1);
      }
    } else if (kind === 'matchExpressions') {
      const fields = Object.fromEntries(spec.split('.').map((f) => [f.slice(0, f.indexOf('=')), f.slice(f.indexOf('=') + 1)]));
      if (!fields.key) throw new Error(`matchExpressions entry ${JSON.stringify(spec)} has no key=`);
      if (!fields.operator) throw new Error(`matchExpressions entry ${JSON.stringify(spec)} has no operator=`);
      const expression: { key: string; operator: string; values?: string[] } = { key: fields.key, operator: fields.operator };
      if (fields.values) expression.values = fields.values.split('|');
      (selector.matchExpressions ??= []).push(expression);
    } else {
      throw new Error(`${JSON.stringify(part)} must start with matchLabels~ or matchExpressions~`);
    }
  }
  return selector;
}
