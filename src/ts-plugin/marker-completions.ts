/**
 * What to offer while a marker is typed, from the marker catalogue: marker names after `+` (only those that
 * may stand on the node the comment belongs to, when that is known), the remaining argument names after
 * `+name:` or `,` of a marker with named arguments, and `true`/`false` for a boolean value.
 */
import { markerCatalogue, type ArgumentDefinition, type MarkerDefinition } from '../markers/catalogue.js';
import type { MarkerTarget } from '../markers/types.js';

/** One thing to offer; `replaceFrom` is how many characters before the cursor it replaces. */
export interface MarkerCompletion {
  name: string;
  /** What is inserted (the name, or `argument=`). */
  insertText: string;
  summary: string;
  deprecated: boolean;
  kind: 'marker' | 'argument' | 'value';
}

export interface MarkerCompletions {
  /** Characters before the cursor (after the `+`, or after `:`/`,`/`=`) that a chosen entry replaces. */
  replaceLength: number;
  entries: MarkerCompletion[];
}

/** Completions for the marker text `typed` (from just after the `+` up to the cursor) on a node of kind `target`. */
export function markerCompletions(typed: string, target: MarkerTarget | undefined): MarkerCompletions {
  const definitions = markerCatalogue().definitions.filter((d) => target === undefined || d.target === target);
  const withArguments = definitions
    .filter((d) => d.shape === 'args' && typed.startsWith(`${d.name}:`))
    .sort((a, b) => b.name.length - a.name.length)[0];
  if (withArguments) return argumentCompletions(withArguments, typed.slice(withArguments.name.length + 1));
  const equals = typed.indexOf('=');
  if (equals >= 0) {
    const valued = definitions.find((d) => d.shape === 'value' && d.name === typed.slice(0, equals));
    const value = typed.slice(equals + 1);
    return { replaceLength: value.length, entries: valued ? valueCompletions(valued.args[0]!) : [] };
  }
  const seen = new Set<string>();
  const entries: MarkerCompletion[] = [];
  for (const d of definitions) {
    if (seen.has(d.name)) continue;
    seen.add(d.name);
    entries.push({ name: d.name, insertText: d.name, summary: summaryOf(d), deprecated: d.deprecatedInFavorOf !== undefined, kind: 'marker' });
  }
  return { replaceLength: typed.length, entries: entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

function argumentCompletions(definition: MarkerDefinition, argumentText: string): MarkerCompletions {
  const segments = argumentText.split(',');
  const current = segments[segments.length - 1]!;
  const equals = current.indexOf('=');
  if (equals >= 0) {
    const argument = definition.args.find((a) => a.name === current.slice(0, equals));
    const value = current.slice(equals + 1);
    return { replaceLength: value.length, entries: argument ? valueCompletions(argument) : [] };
  }
  const given = new Set(segments.slice(0, -1).map((s) => s.split('=')[0]));
  const entries = definition.args
    .filter((a) => !given.has(a.name))
    .map((a): MarkerCompletion => ({
      name: a.name,
      insertText: `${a.name}=`,
      summary: `${a.optional ? 'optional' : 'required'} <${a.type}>: ${a.summary}`,
      deprecated: false,
      kind: 'argument',
    }));
  return { replaceLength: current.length, entries };
}

function valueCompletions(argument: ArgumentDefinition): MarkerCompletion[] {
  if (argument.type !== 'bool') return [];
  return ['true', 'false'].map((v) => ({ name: v, insertText: v, summary: argument.summary, deprecated: false, kind: 'value' }));
}

function summaryOf(definition: MarkerDefinition): string {
  return definition.deprecatedInFavorOf ? `(use +${definition.deprecatedInFavorOf}) ${definition.summary}` : definition.summary;
}
