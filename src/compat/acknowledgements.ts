/**
 * The acknowledgement file of the API-evolution check, `api-compat.yaml` at the project root: the breaking
 * changes made on purpose, each by its finding id with the reason it is accepted. A malformed file is an error
 * naming its line and field; an entry that matches no finding is only warned about (the change may be released).
 *
 * ```yaml
 * acknowledged:
 *   - id: cronjobs.batch.tutorial.kubebuilder.io/v1/spec.schedule:pattern-added
 *     reason: every schedule in use matches it (checked on all clusters, 2026-11-20)
 * ```
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export const ACKNOWLEDGEMENT_FILE = 'api-compat.yaml';

export interface Acknowledgement {
  id: string;
  reason: string;
  /** 1-based line of the entry in the file. */
  line: number;
}

export type AcknowledgementsResult = { ok: true; acknowledgements: Acknowledgement[] } | { ok: false; error: string };

/** Reads `api-compat.yaml` of the project root; no file means nothing acknowledged. */
export function readAcknowledgements(root: string): AcknowledgementsResult {
  const path = join(root, ACKNOWLEDGEMENT_FILE);
  if (!existsSync(path)) return { ok: true, acknowledgements: [] };
  return parseAcknowledgements(readFileSync(path, 'utf8'), ACKNOWLEDGEMENT_FILE);
}

/** Parses the file's text; errors read `<file>:<line>: <field>: <problem>`. */
export function parseAcknowledgements(text: string, file: string): AcknowledgementsResult {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const lineOf = (node: Node | null | undefined): number => (node?.range ? lines.linePos(node.range[0]).line : 1);
  const fail = (node: Node | null | undefined, message: string): AcknowledgementsResult => ({ ok: false, error: `${file}:${lineOf(node)}: ${message}` });
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    return { ok: false, error: `${file}:${first.linePos?.[0]?.line ?? 1}: not valid YAML: ${first.message.split('\n')[0]}` };
  }
  const top = document.contents;
  if (top === null || (isScalar(top) && top.value === null)) return { ok: true, acknowledgements: [] };
  if (!isMap(top)) return fail(top, 'expected a mapping with an "acknowledged" list');
  for (const pair of top.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'acknowledged') return fail(pair.key as Node, `unknown field "${key}" (the file has one field, "acknowledged")`);
  }
  const list = top.get('acknowledged', true) as Node | undefined;
  if (list === undefined || (isScalar(list) && list.value === null)) return { ok: true, acknowledgements: [] };
  if (!isSeq(list)) return fail(list, 'acknowledged: expected a list of {id, reason} entries');
  const acknowledgements: Acknowledgement[] = [];
  const seen = new Map<string, number>();
  for (const [index, entry] of list.items.entries()) {
    const at = `acknowledged[${index}]`;
    if (!isMap(entry)) return fail(entry as Node, `${at}: expected a mapping with "id" and "reason"`);
    for (const pair of entry.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (key !== 'id' && key !== 'reason') return fail(pair.key as Node, `${at}.${key}: unknown field (an entry has "id" and "reason")`);
    }
    const id = entry.get('id', true) as Node | undefined;
    const reason = entry.get('reason', true) as Node | undefined;
    if (!isScalar(id) || typeof id.value !== 'string' || id.value.trim() === '') return fail(id ?? entry, `${at}.id: expected the id of a finding (a non-empty string)`);
    if (!isScalar(reason) || typeof reason.value !== 'string' || reason.value.trim() === '') {
      return fail(reason ?? entry, `${at}.reason: expected why the change is accepted (a non-empty string)`);
    }
    const line = lineOf(entry);
    const earlier = seen.get(id.value);
    if (earlier !== undefined) return fail(id, `${at}.id: "${id.value}" is acknowledged already at line ${earlier}`);
    seen.set(id.value, line);
    acknowledgements.push({ id: id.value, reason: reason.value.trim(), line });
  }
  return { ok: true, acknowledgements };
}
