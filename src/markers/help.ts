/**
 * Help text for the marker catalogue, laid out like `controller-gen crd -w`: markers grouped by
 * category, one row per (marker, target) with its syntax and summary; and the full help of one marker.
 * Pure text formatting over the catalogue — `kubeforge markers` prints it.
 */
import type { ArgumentDefinition, MarkerDefinition } from './catalogue.js';

/** `+name`, `+name=<type>` or `+name:a=<t>[,b=<t>]` with arguments sorted by name (byte order). */
export function markerSyntax(definition: MarkerDefinition): string {
  if (definition.shape === 'flag') return `+${definition.name}`;
  if (definition.shape === 'value') return `+${definition.name}=${typeLabel(definition.args[0])}`;
  const args = [...definition.args].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `+${definition.name}${args
    .map((arg, i) => {
      const separator = i === 0 ? ':' : ',';
      const text = `${arg.name}=${typeLabel(arg)}`;
      return arg.optional ? `[${separator}${text}]` : `${separator}${text}`;
    })
    .join('')}`;
}

function typeLabel(arg: ArgumentDefinition): string {
  return `<${arg.type}>`;
}

function summaryOf(definition: MarkerDefinition): string {
  return definition.deprecatedInFavorOf ? `(use +${definition.deprecatedInFavorOf}) ${definition.summary}` : definition.summary;
}

/** The summary table of `definitions`, grouped by category (categories and markers sorted by name). */
export function formatMarkerSummary(definitions: MarkerDefinition[]): string {
  const categories = [...new Set(definitions.map((d) => d.category))].sort();
  let out = '';
  for (const category of categories) {
    const rows = definitions
      .filter((d) => d.category === category)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : targetRank(a) - targetRank(b)))
      .map((d) => [markerSyntax(d), d.target, summaryOf(d)]);
    out += `\n${category}\n\n${formatTable(rows)}\n`;
  }
  return out;
}

const TARGET_ORDER = ['package', 'type', 'field'];
function targetRank(d: MarkerDefinition): number {
  return TARGET_ORDER.indexOf(d.target);
}

/** Columns padded to the longest cell + 2, trailing spaces trimmed. */
function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((r) => r[column].length)) + 2);
  return rows.map((r) => r.map((cell, column) => cell.padEnd(widths[column])).join('').trimEnd() + '\n').join('');
}

/** The full help of one marker (all its targets): syntax, targets, summary, details, each argument. */
export function formatMarkerDetails(definitions: MarkerDefinition[]): string {
  const first = definitions[0];
  const lines = [`${markerSyntax(first)}`, '', `  category: ${first.category}`, `  targets:  ${definitions.map((d) => d.target).join(', ')}`];
  if (first.deprecatedInFavorOf) lines.push(`  deprecated: use +${first.deprecatedInFavorOf}`);
  if (first.since) lines.push(`  since: controller-tools ${first.since} (accepted by kubeforge)`);
  lines.push('', indent(first.summary, 2));
  if (first.details) lines.push('', indent(first.details.trim(), 2));
  const args = first.shape === 'args' ? first.args : first.shape === 'value' ? first.args : [];
  if (args.length > 0) {
    lines.push('', first.shape === 'value' ? 'Value:' : 'Arguments:');
    const rows = args.map((a) => [
      a.name === '' ? `=${typeLabel(a)}` : `${a.name}=${typeLabel(a)}`,
      [a.optional ? 'optional' : 'required', a.default !== undefined ? `default ${JSON.stringify(a.default)}` : ''].filter(Boolean).join(', '),
      a.summary,
    ]);
    lines.push(...formatTable(rows).trimEnd().split('\n').map((l) => `  ${l}`));
    for (const a of args.filter((x) => x.details)) lines.push('', `  ${a.name || 'value'}:`, indent(a.details!.trim(), 4));
  }
  return `${lines.join('\n')}\n`;
}

function indent(text: string, spaces: number): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : ' '.repeat(spaces) + l))
    .join('\n');
}

/** The catalogue as JSON, shaped like `controller-gen -wwww`: categories sorted, markers sorted by name. */
export function markerHelpJson(definitions: MarkerDefinition[]): unknown[] {
  const categories = [...new Set(definitions.map((d) => d.category))].sort();
  return categories.map((category) => ({
    category,
    markers: definitions
      .filter((d) => d.category === category)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : targetRank(a) - targetRank(b)))
      .map((d) => ({
        name: d.name,
        target: d.target,
        syntax: markerSyntax(d),
        summary: d.summary,
        ...(d.details ? { details: d.details.trim() } : {}),
        ...(d.deprecatedInFavorOf ? { deprecatedInFavorOf: d.deprecatedInFavorOf } : {}),
        fields: d.args.map((a) => ({
          name: a.name,
          type: a.type,
          optional: a.optional,
          ...(a.default !== undefined ? { default: a.default } : {}),
          summary: a.summary,
          ...(a.details ? { details: a.details.trim() } : {}),
        })),
      })),
  }));
}
