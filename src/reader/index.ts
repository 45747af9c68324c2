/**
 * The reader: loads `api/**\/*.ts` (and the project files they import) with the TypeScript parser that ts-morph
 * bundles (its `ts` export) — syntax trees only, no Program, no type checker, which keeps 100 kinds well under a
 * second — and builds the API model (src/model). It is the only code that knows ts-morph. Markers are
 * parsed by src/markers/collect.ts; this module only decides which comment lines belong to which node:
 *
 * - A node's godoc is the run of comments (`//` and JSDoc alike) touching it with no blank line; the nearest
 *   block above that, separated by a blank line, also belongs to it (kubebuilder's `+kubebuilder:object:root`
 *   layout). Markers in that separated block that only exist at package level (`+groupName`,
 *   `+kubebuilder:rbac`, …) go to the package, as in controller-gen.
 * - The description is the godoc's non-marker lines (JSDoc text or `//` text), normalised as controller-gen does.
 * - Package markers (`+groupName`, `+versionName`, `+kubebuilder:validation:Optional`, …) are every other
 *   top-level comment of the folder's files (normally `groupversion_info.ts`).
 * - A folder is an API version when one of its files has `+groupName`; the version is `+versionName` or the
 *   folder name. Folders without `+groupName` (shared types) are read but give no kinds.
 * - Given controller files, their `+kubebuilder:rbac` / `+kubebuilder:webhook` markers become the model's
 *   `controllers` declarations (controller-declarations.ts); they are read afresh on every call, never cached.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, Marker } from '../markers/types.js';
import type { ApiGroup, ApiModel, ApiVersion, Kind, NamedType } from '../model/index.js';
import type { ApiReader } from './api-reader.js';
import { importInTurn } from './import-in-turn.js';
import { ModelCache } from './model-cache.js';

export interface LoadApiProjectOptions {
  /** Project root; file paths in the model and diagnostics are relative to it. */
  root: string;
  /** Folders or files (relative to root) holding the API types; default `['api']`. */
  apiPaths?: string[];
  /** Controller sources (root-relative) whose RBAC and webhook markers fill `model.controllers`; none by default. */
  controllerFiles?: string[];
}

export interface LoadApiProjectResult {
  model: ApiModel;
  diagnostics: Diagnostic[];
}

/** Lists the .ts files under the given paths, sorted, skipping tests, declarations and generated deep-copy files. */
export function listApiFiles(root: string, apiPaths: string[]): string[] {
  const files: string[] = [];
  const visit = (abs: string): void => {
    if (!fs.existsSync(abs)) return;
    const stat = fs.statSync(abs);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(abs).sort()) if (entry !== 'node_modules') visit(path.join(abs, entry));
    } else if (/\.m?ts$/.test(abs) && !/\.(test|spec)\.ts$|\.d\.ts$/.test(abs) && !path.basename(abs).startsWith('zz_generated')) {
      files.push(abs);
    }
  };
  for (const p of apiPaths) visit(path.resolve(root, p));
  return [...new Set(files)].sort();
}

function markerString(markers: Marker[] | undefined, name: string): string | undefined {
  const m = markers?.find((x) => x.name === name);
  if (!m) return undefined;
  const v = m.args[''];
  return typeof v === 'string' ? v : v === true || v === undefined || v === null ? '' : String(v);
}

let parser: Promise<typeof import('./api-reader.js')> | undefined;

/** The parser (and with it the TypeScript compiler), loaded on the first read that the model cache cannot answer. */
function loadParser(): Promise<typeof import('./api-reader.js')> {
  parser ??= importInTurn(() => import('./api-reader.js'));
  return parser;
}

/** A kind has `apiVersion` and `kind` (own properties or `extends TypeMeta`) and `metadata?: ObjectMeta`. */
function isKind(type: NamedType): boolean {
  if (type.definition.kind !== 'struct') return false;
  const fields = new Map(type.definition.fields.map((f) => [f.name, f]));
  const metadata = fields.get('metadata');
  const typeMeta =
    (fields.has('apiVersion') && fields.has('kind')) ||
    type.definition.embeds.some((e) => e.kind === 'known' && e.key === 'meta/v1.TypeMeta');
  return typeMeta && metadata !== undefined && metadata.type.kind === 'known' && metadata.type.key === 'meta/v1.ObjectMeta';
}

/** A kind-shaped type without +kubebuilder:object:root whose `apiVersion` literal names another API group. */
function isForeignKind(type: NamedType, groupName: string): boolean {
  if (type.markers.some((m) => m.name === 'kubebuilder:object:root') || type.definition.kind !== 'struct') return false;
  const apiVersion = type.definition.fields.find((f) => f.name === 'apiVersion');
  if (apiVersion?.type.kind !== 'literal' || typeof apiVersion.type.value !== 'string') return false;
  const slash = apiVersion.type.value.lastIndexOf('/');
  return (slash < 0 ? '' : apiVersion.type.value.slice(0, slash)) !== groupName;
}

let controllerReader: Promise<typeof import('./controller-declarations.js')> | undefined;

/** The controllers' marker reader (it parses with the TypeScript compiler), loaded when controller files are given. */
function loadControllerReader(): Promise<typeof import('./controller-declarations.js')> {
  controllerReader ??= importInTurn(() => import('./controller-declarations.js'));
  return controllerReader;
}

/** Loads the API types of a project into the model. Never throws for bad input: problems become diagnostics. */
export async function loadApiProject(options: LoadApiProjectOptions): Promise<LoadApiProjectResult> {
  const root = path.resolve(options.root);
  const apiPaths = options.apiPaths ?? ['api'];
  const apiFiles = listApiFiles(root, apiPaths);
  const cache = ModelCache.for(root, apiPaths, apiFiles);
  let result = cache?.read();
  if (result === undefined) {
    const { ApiReader } = await loadParser();
    const reader = new ApiReader(root);
    result = readApiModel(reader, apiFiles);
    cache?.save(result, reader.inputTexts());
  }
  if (options.controllerFiles === undefined) return result;
  const { readControllerDeclarations } = await loadControllerReader();
  const controllers = readControllerDeclarations(options.controllerFiles, (file) => fs.readFileSync(path.join(root, file), 'utf8'));
  return { model: { ...result.model, controllers: controllers.declarations }, diagnostics: [...result.diagnostics, ...controllers.diagnostics] };
}

/**
 * Reads `apiFiles` (absolute) with `reader` and groups their types into the API model; synchronous, without the
 * model cache (the editor plugin, src/ts-plugin, reads the texts being edited this way).
 */
export function readApiModel(reader: ApiReader, apiFiles: string[]): LoadApiProjectResult {
  const root = reader.root;
  for (const file of apiFiles) reader.load(file);
  reader.convertPending();
  reader.findHandWrittenDeepCopies();

  const byDir = new Map<string, string[]>();
  for (const abs of apiFiles) {
    const rel = reader.relative(abs);
    const dir = path.posix.dirname(rel);
    byDir.set(dir, [...(byDir.get(dir) ?? []), rel]);
  }
  const groups = new Map<string, ApiVersion[]>();
  const typeList = Object.values(reader.types);
  for (const [dir, files] of [...byDir].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const markers = files.flatMap((f) => reader.packageMarkers.get(f) ?? []);
    const fileSet = new Set(files);
    const declared = typeList.filter((t) => fileSet.has(t.file));
    const groupName = markerString(markers, 'groupName');
    const kinds: Kind[] = declared.filter((t) => isKind(t)).map((t) => ({ name: t.name, typeId: t.id }));
    if (markers.some((m) => m.name === 'kubebuilder:skip')) continue;
    if (groupName === undefined) {
      for (const k of kinds) {
        const t = reader.types[k.typeId]!;
        reader.diagnostics.push({
          position: t.position,
          message: `kind ${t.name}: the folder ${dir} has no +groupName marker (put it in ${dir}/groupversion_info.ts)`,
        });
      }
      continue;
    }
    // A written-out copy of a Kubernetes kind of another group (`apiVersion?: 'v1'` on a Node) is a type the
    // folder's kinds use, not a kind of the folder: no CRD, no literal check. With +kubebuilder:object:root it
    // is the folder's kind, and a literal of another group stays an error.
    const ownKinds = kinds.filter((k) => !isForeignKind(reader.types[k.typeId]!, groupName));
    kinds.splice(0, kinds.length, ...ownKinds);
    const version = markerString(markers, 'versionName') || path.posix.basename(dir);
    const apiVersion: ApiVersion = { group: groupName, version, dir, files, markers, kinds, typeIds: declared.map((t) => t.id) };
    checkApiVersionLiterals(reader, apiVersion);
    groups.set(groupName, [...(groups.get(groupName) ?? []), apiVersion]);
  }
  const model: ApiModel = {
    root,
    groups: [...groups]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, versions]): ApiGroup => ({
        name,
        versions: versions.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0)),
      })),
    types: reader.types,
  };
  return { model, diagnostics: reader.diagnostics };
}

/** A kind's `apiVersion: 'g/v'` / `kind: 'K'` literals, when written, must match its folder's group, version and name. */
function checkApiVersionLiterals(reader: ApiReader, version: ApiVersion): void {
  for (const kind of version.kinds) {
    const type = reader.types[kind.typeId]!;
    if (type.definition.kind !== 'struct') continue;
    for (const field of type.definition.fields) {
      if (field.type.kind !== 'literal') continue;
      const expected =
        field.name === 'apiVersion' ? (version.group ? `${version.group}/${version.version}` : version.version) : field.name === 'kind' ? kind.name : undefined;
      if (expected !== undefined && field.type.value !== expected)
        reader.diagnostics.push({
          position: field.position,
          message: `field "${field.name}" of ${kind.name}: literal ${JSON.stringify(field.type.value)} does not match ${JSON.stringify(expected)} (from +groupName/+versionName of ${version.dir})`,
        });
    }
  }
}
