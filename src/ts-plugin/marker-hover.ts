/**
 * Hover help for a marker: its syntax and its catalogue entry (summary, details, arguments, where it may
 * stand), found by name as the generator finds it — the full name, else the name without its last segment
 * (`+kubebuilder:rbac:groups=…` is `kubebuilder:rbac` with arguments).
 */
import { findMarkerDefinitions, type MarkerDefinition } from '../markers/catalogue.js';
import { markerSyntax } from '../markers/help.js';

export interface MarkerHover {
  /** The name part of the marker text, `+` included: what the hover spans. */
  nameLength: number;
  syntax: string;
  /** Markdown: summary, details, arguments, targets. */
  documentation: string;
}

/** The help of the marker written as `text` (starting with `+`), or undefined when the catalogue does not know it. */
export function markerHover(text: string): MarkerHover | undefined {
  const body = text.slice(1);
  const equals = body.indexOf('=');
  const fullName = (equals < 0 ? body : body.slice(0, equals)).trim();
  const lastColon = fullName.lastIndexOf(':');
  let definitions = findMarkerDefinitions(fullName);
  let nameLength = fullName.length;
  if (definitions.length === 0 && equals >= 0 && lastColon > 0) {
    definitions = findMarkerDefinitions(fullName.slice(0, lastColon)).filter((d) => d.shape === 'args');
    nameLength = lastColon;
  }
  if (definitions.length === 0) return undefined;
  return { nameLength: nameLength + 1, syntax: markerSyntax(definitions[0]!), documentation: documentationOf(definitions) };
}

function documentationOf(definitions: MarkerDefinition[]): string {
  const first = definitions[0]!;
  const parts = [first.summary.charAt(0).toUpperCase() + first.summary.slice(1)];
  if (first.deprecatedInFavorOf) parts.push(`Deprecated: use \`+${first.deprecatedInFavorOf}\`.`);
  if (first.details) parts.push(first.details.trim());
  if (first.args.length > 0) {
    const rows = first.args.map((a) => {
      const name = a.name === '' ? `=<${a.type}>` : `${a.name}=<${a.type}>`;
      const presence = [a.optional ? 'optional' : 'required', a.default !== undefined ? `default ${JSON.stringify(a.default)}` : ''].filter(Boolean).join(', ');
      return `- \`${name}\` (${presence})${a.summary ? `: ${a.summary}` : ''}`;
    });
    parts.push(`${first.shape === 'value' ? 'Value' : 'Arguments'}:\n${rows.join('\n')}`);
  }
  parts.push(`Category: ${first.category}. Stands on: ${definitions.map((d) => d.target).join(', ')}.`);
  return parts.join('\n\n');
}
