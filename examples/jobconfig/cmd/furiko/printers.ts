/*
Copyright 2026 The jobconfig Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The two layouts of Furiko's CLI: tables (columns three spaces apart, no borders) and descriptions
 * (sections of `Key:  value` lines under an upper-case header, cyan on a terminal), plus the machine
 * formats of `-o name|json|yaml`.
 */
import YAML from 'yaml';

/** A table: the header row and one row per object, each column as wide as its widest cell. */
export function renderTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all
    .map(
      (row) =>
        row
          .map((cell, column) => (cell ?? '').padEnd(widths[column]))
          .join('   ')
          .trimEnd() + '\n',
    )
    .join('');
}

/**
 * A table printed in parts, as `list … --watch` prints it: the header and the rows listed first set the
 * column widths (each column at least as wide as its header), the rows of later changes are padded to them.
 */
export class WatchedTable {
  private widths: number[] | undefined;

  constructor(private readonly header: string[]) {}

  render(rows: string[][]): string {
    const first = this.widths === undefined;
    const widths = (this.widths ??= this.header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length))));
    return (first ? [this.header, ...rows] : rows).map((row) => row.map((cell, column) => (cell ?? '').padEnd(widths[column] ?? 0)).join('   ').trimEnd() + '\n').join('');
  }
}

/** One section of a description: its header and its key/value pairs (a section without pairs is left out). */
export interface Section {
  name: string;
  pairs: Array<[string, string]>;
}

/** Sections separated by an empty line; keys padded to the longest key of their section plus `:` and two spaces. */
export function renderDescription(sections: Section[], color: boolean): string {
  const shown = sections.filter((section) => section.pairs.length > 0);
  return shown
    .map((section) => {
      const header = section.name.toUpperCase();
      const width = Math.max(...section.pairs.map(([key]) => key.length)) + 3;
      const lines = section.pairs.map(([key, value]) => `${`${key}:`.padEnd(width)}${value}`);
      return `${color ? `\u001b[36m${header}\u001b[0m` : header}\n${lines.join('\n')}\n`;
    })
    .join('\n');
}

/** The divider Furiko prints between two described objects. */
export const DIVIDER = '---\n';

/** `-o` values: Furiko's `pretty` (the default), `detail` (`get job`: every task; elsewhere as pretty) and the machine formats. */
export const OUTPUT_FORMATS = ['pretty', 'detail', 'name', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(value: string): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new Error(`invalid value for --output: "${value}", valid values: ${OUTPUT_FORMATS.join(', ')}`);
}

interface NamedObject {
  kind?: string;
  metadata?: { name?: string; managedFields?: unknown };
}

/** The object without `metadata.managedFields`, which kubectl also leaves out unless asked. */
function withoutManagedFields<T extends NamedObject>(object: T): T {
  if (!object.metadata?.managedFields) return object;
  const { managedFields: _managedFields, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/**
 * Objects in a machine format: `name` as `<kind>.execution.furiko.io/<name>` lines; one object as itself
 * in JSON (4-space indent, as kubectl) or YAML; several (or a list command's result) as a `v1` List;
 * without managed fields, as kubectl shows them.
 */
export function renderObjects(format: Exclude<OutputFormat, 'pretty' | 'detail'>, objects: NamedObject[], asList: boolean): string {
  if (format === 'name') return objects.map((o) => `${(o.kind ?? '').toLowerCase()}.execution.furiko.io/${o.metadata?.name ?? ''}\n`).join('');
  const shown = objects.map(withoutManagedFields);
  const value = shown.length === 1 && !asList ? shown[0] : { apiVersion: 'v1', kind: 'List', items: shown, metadata: { resourceVersion: '' } };
  return format === 'json' ? `${JSON.stringify(value, null, 4)}\n` : YAML.stringify(value);
}
