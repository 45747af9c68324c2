/**
 * The objects of a manifest file (YAML or JSON, several documents), parsed once per text: a test file that
 * starts an env per test parses its CRDs once, and other test files (jest evaluates each in a fresh module
 * registry) read the parse from a JSON file named by the text's SHA-256 in kubeforge's cache folder
 * (`node_modules/.cache/kubeforge/parsed-manifests-v1` of the project, else the OS temp folder) — JSON.parse
 * takes a few ms where yaml took ~0.25 CPU-s for a 400 KB CRD. The file is read every time (an edit is a new
 * key); each caller gets its own copy; a parse whose values JSON cannot carry exactly (a date, a non-finite
 * number …) is not written.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectCacheFolder, writeCacheFile } from '../reader/cache-files.js';
import type { KubeObject } from '../runtime/client/object.js';

const parsedByText = new Map<string, KubeObject[]>();

export async function readManifests(file: string): Promise<KubeObject[]> {
  const text = await readFile(file, 'utf8');
  let parsed = parsedByText.get(text);
  if (parsed === undefined) {
    const folder = path.join(projectCacheFolder(path.dirname(file)) ?? path.join(os.tmpdir(), 'kubeforge'), 'parsed-manifests-v1');
    const cached = path.join(folder, `${createHash('sha256').update(text).digest('hex')}.json`);
    parsed = await readFile(cached, 'utf8').then((json) => JSON.parse(json) as KubeObject[], () => undefined);
    if (parsed === undefined) {
      parsed = parseAllDocuments(text)
        .map((doc) => {
          if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
          return doc.toJS() as KubeObject | null;
        })
        .filter((o): o is KubeObject => o !== null && typeof o === 'object');
      if (isPlainJson(parsed)) writeCacheFile(cached, JSON.stringify(parsed));
    }
    parsedByText.set(text, parsed);
  }
  return structuredClone(parsed);
}

/**
 * The CustomResourceDefinitions of a folder such as config/crd/bases: its YAML files in name order, each read
 * through readManifests (a start after one with the same CRDs reads JSON instead of parsing YAML again, ~0.25
 * CPU-s for a big CRD such as one embedding a Job template); none when the folder does not exist.
 */
export async function readCrdFolder(folder: string): Promise<KubeObject[]> {
  if (!existsSync(folder)) return [];
  const objects: KubeObject[] = [];
  for (const file of readdirSync(folder).filter((f) => /\.ya?ml$/.test(f)).sort()) objects.push(...(await readManifests(path.join(folder, file))));
  return objects.filter((o) => o.kind === 'CustomResourceDefinition');
}

/** Whether JSON.stringify/parse gives `value` back unchanged: plain objects, arrays, strings, finite numbers, booleans, null. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as Record<string, unknown>).every(isPlainJson);
}
