/**
 * The diagnostics `kubeforge manifests` gives, computed from the texts being edited. For API types (api/**) the
 * whole API folder is read as manifests reads it — the reader (marker names, arguments and targets checked
 * against the catalogue, with "did you mean"; type problems), the model (`+groupName`, apiVersion literals) and
 * the CRD stage (a marker that does not fit its field's schema, structural checks) — since a marker's meaning can
 * depend on other files. For controllers (internal/**) each file's `+kubebuilder:rbac` / `+kubebuilder:webhook`
 * markers are scanned as manifests scans them, with the webhook markers' checks. Syntax errors are left to
 * TypeScript, which reports them itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildCrds } from '../generate/crd/build.js';
import { buildWebhooks } from '../generate/webhook/build.js';
import { splitWarnings, type Diagnostic } from '../markers/types.js';
import { ApiReader } from '../reader/api-reader.js';
import { readControllerDeclarations } from '../reader/controller-declarations.js';
import { listApiFiles, readApiModel } from '../reader/index.js';

/** Which generator input a project file is, by its folder (the defaults of `kubeforge manifests`). */
export type GeneratorInput = 'api' | 'controller' | undefined;

/** The API folder `kubeforge manifests` reads by default. */
export const API_FOLDER = 'api';

/** `rel` is root-relative with `/`: api/** and internal/** sources, not tests, declarations or generated files. */
export function generatorInputOf(rel: string): GeneratorInput {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (!/\.m?ts$/.test(name) || /\.d\.m?ts$|\.(test|spec)\.m?ts$/.test(name) || name.startsWith('zz_generated')) return undefined;
  if (rel.startsWith(`${API_FOLDER}/`)) return 'api';
  if (rel.startsWith('internal/')) return 'controller';
  return undefined;
}

/** The API files of the project at `root`, absolute, as manifests lists them. */
export function projectApiFiles(root: string): string[] {
  return listApiFiles(root, [API_FOLDER]);
}

/**
 * Every diagnostic of the project's API files (reader, model and CRD stages), positioned by root-relative file.
 * `readText` gives a file's text (the editor's unsaved text where there is one). The CRD options follow the flags
 * the project passes to `kubeforge manifests` in its Makefile or package.json.
 */
export function apiDiagnostics(root: string, apiFiles: string[], readText: (abs: string) => string): Diagnostic[] {
  const loaded = readApiModel(new ApiReader(root, readText), apiFiles);
  const flags = manifestsFlags(root);
  const crds = buildCrds(loaded.model, {
    allowDangerousTypes: flags.includes('--allow-dangerous-types'),
    generateEmbeddedObjectMeta: flags.includes('--generate-embedded-object-meta'),
  });
  // Warnings (markers controller-gen ignores) stay warnings in the editor unless the project runs --strict-markers.
  const { errors, warnings } = splitWarnings([...loaded.diagnostics, ...crds.diagnostics], flags.includes('--strict-markers'));
  return [...errors, ...warnings].filter((d) => !d.message.startsWith('syntax error:'));
}

/** The diagnostics of one controller file `rel` (root-relative) with the text `text`. */
export function controllerDiagnostics(rel: string, text: string): Diagnostic[] {
  const read = readControllerDeclarations([rel], () => text);
  return [...read.diagnostics, ...buildWebhooks(read.declarations.webhooks).diagnostics];
}

/** The text of the project's Makefile and package.json, where the flags of `kubeforge manifests` are written. */
function manifestsFlags(root: string): string {
  return ['Makefile', 'package.json']
    .map((name) => path.join(root, name))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}
