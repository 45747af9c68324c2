/**
 * The marker catalogue: loads the marker definitions kept as JSON data in ../../markers (shipped with
 * the package) and answers "what is marker X on target T". Parsing, argument checking, suggestions and
 * `kubeforge markers` all read it; adding a marker is one entry in those files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MarkerTarget, MarkerValue } from './types.js';

/** The value types a marker argument may declare. */
export type ArgumentType = 'string' | 'int' | 'number' | 'bool' | 'any' | 'json' | 'raw' | '[]string' | '[]int' | '[]any';

const ARGUMENT_TYPES: readonly ArgumentType[] = ['string', 'int', 'number', 'bool', 'any', 'json', 'raw', '[]string', '[]int', '[]any'];
const TARGETS: readonly MarkerTarget[] = ['package', 'type', 'field'];

/** One argument of a marker. The single value of a one-value marker is the argument named ''. */
export interface ArgumentDefinition {
  name: string;
  type: ArgumentType;
  optional: boolean;
  default?: MarkerValue;
  summary: string;
  details?: string;
}

/** How a marker is written: `+name` (flag), `+name=value` (value), `+name:a=1,b=2` (args). */
export type MarkerShape = 'flag' | 'value' | 'args';

/** One marker definition for one target. */
export interface MarkerDefinition {
  name: string;
  target: MarkerTarget;
  shape: MarkerShape;
  /** Empty for flags; one argument named '' for value markers; the named arguments otherwise. */
  args: ArgumentDefinition[];
  category: string;
  summary: string;
  details?: string;
  deprecatedInFavorOf?: string;
  since?: string;
}

/** The loaded catalogue. */
export interface MarkerCatalogue {
  definitions: MarkerDefinition[];
  /** Names of other tools' markers that are accepted and ignored. */
  ignoredNames: Set<string>;
  ignoredPrefixes: string[];
}

const VALIDATION_PREFIX = 'kubebuilder:validation:';
const ITEMS_PREFIX = 'kubebuilder:validation:items:';

/** The folder holding the catalogue files: `<package root>/markers` (from src/markers or dist/markers). */
export function catalogueDirectory(): string {
  return fileURLToPath(new URL('../../markers/', import.meta.url));
}

let cached: MarkerCatalogue | undefined;
let byName: Map<string, MarkerDefinition[]> | undefined;

/** All marker definitions (loaded once per process). */
export function markerCatalogue(): MarkerCatalogue {
  if (!cached) cached = loadCatalogue(catalogueDirectory());
  return cached;
}

/** The definitions of `name` (without `+`), one per target; with `target`, only that target's. */
export function findMarker(name: string, target?: MarkerTarget): MarkerDefinition | undefined {
  return findMarkerDefinitions(name).find((d) => target === undefined || d.target === target);
}

/** Every definition of `name` (without `+`), across targets. */
export function findMarkerDefinitions(name: string): MarkerDefinition[] {
  if (!byName) {
    byName = new Map();
    for (const d of markerCatalogue().definitions) {
      const list = byName.get(d.name) ?? [];
      list.push(d);
      byName.set(d.name, list);
    }
  }
  return byName.get(name) ?? [];
}

/** True when `name` belongs to another tool and is accepted silently. */
export function isIgnoredMarkerName(name: string): boolean {
  const catalogue = markerCatalogue();
  return catalogue.ignoredNames.has(name) || catalogue.ignoredPrefixes.some((p) => name.startsWith(p));
}

/** Reads every `*.json` catalogue file in `directory`; throws naming the file and entry on bad data. */
export function loadCatalogue(directory: string): MarkerCatalogue {
  const definitions: MarkerDefinition[] = [];
  const ignoredNames = new Set<string>();
  const ignoredPrefixes: string[] = [];
  for (const file of readdirSync(directory).filter((f) => f.endsWith('.json')).sort()) {
    const path = join(directory, file);
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${path}: ${(err as Error).message}`, { cause: err });
    }
    if (file === 'ignored.json') {
      for (const n of (data.names as string[] | undefined) ?? []) ignoredNames.add(n);
      ignoredPrefixes.push(...((data.prefixes as string[] | undefined) ?? []));
      continue;
    }
    const category = requireString(data.category, `${path}: category`);
    const entries = data.markers;
    if (!Array.isArray(entries)) throw new Error(`${path}: "markers" must be a list`);
    entries.forEach((entry, i) => definitions.push(...definitionsFromEntry(entry as RawEntry, category, `${path}: markers[${i}]`)));
  }
  return { definitions, ignoredNames, ignoredPrefixes };
}

interface RawArgument {
  name?: string;
  type?: string;
  optional?: boolean;
  default?: MarkerValue;
  summary?: string;
  details?: string;
}

interface RawEntry {
  name?: string;
  targets?: string[];
  value?: RawArgument;
  args?: RawArgument[];
  summary?: string;
  details?: string;
  itemsVariant?: boolean;
  deprecatedInFavorOf?: string;
  since?: string;
}

function definitionsFromEntry(entry: RawEntry, category: string, where: string): MarkerDefinition[] {
  const name = requireString(entry.name, `${where}.name`);
  const targets = entry.targets ?? [];
  if (targets.length === 0 || targets.some((t) => !TARGETS.includes(t as MarkerTarget))) {
    throw new Error(`${where} (${name}): targets must be a non-empty list of package, type, field`);
  }
  if (entry.value && entry.args) throw new Error(`${where} (${name}): give either value or args, not both`);
  const summary = requireString(entry.summary, `${where} (${name}).summary`);
  const shape: MarkerShape = entry.value ? 'value' : entry.args ? 'args' : 'flag';
  const args = entry.value
    ? [argumentFrom({ ...entry.value, name: '', summary: entry.value.summary ?? summary }, `${where} (${name}).value`)]
    : (entry.args ?? []).map((a, i) => argumentFrom(a, `${where} (${name}).args[${i}]`));
  const base = { shape, args, category, details: entry.details, deprecatedInFavorOf: entry.deprecatedInFavorOf, since: entry.since };
  const result: MarkerDefinition[] = targets.map((t) => ({ ...base, name, target: t as MarkerTarget, summary }));
  if (entry.itemsVariant) {
    if (!name.startsWith(VALIDATION_PREFIX)) throw new Error(`${where} (${name}): itemsVariant needs a ${VALIDATION_PREFIX} name`);
    const itemsName = ITEMS_PREFIX + name.slice(VALIDATION_PREFIX.length);
    for (const t of targets) result.push({ ...base, name: itemsName, target: t as MarkerTarget, summary: `for array items ${summary}` });
  }
  return result;
}

function argumentFrom(raw: RawArgument, where: string): ArgumentDefinition {
  const type = raw.type as ArgumentType;
  if (!ARGUMENT_TYPES.includes(type)) throw new Error(`${where}: unknown argument type ${JSON.stringify(raw.type)}`);
  const name = raw.name ?? '';
  return {
    name,
    type,
    optional: raw.optional ?? false,
    ...(raw.default !== undefined ? { default: raw.default } : {}),
    summary: raw.summary ?? '',
    ...(raw.details ? { details: raw.details } : {}),
  };
}

function requireString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${where}: expected a non-empty string`);
  return value;
}
