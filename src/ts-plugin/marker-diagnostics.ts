/**
 * The diagnostics `kubeforge manifests` gives for one file of a project, computed from the text being edited:
 * for API types (under api/) what the reader reports — marker names, arguments and targets checked against
 * the catalogue with "did you mean", and the type problems it finds; for controllers (under internal/) the
 * file-wide `+kubebuilder:rbac` / `+kubebuilder:webhook` scan and the webhook markers' checks. Syntax errors are
 * left to TypeScript, which reports them itself.
 */
import * as path from 'node:path';
import { buildWebhooks, WEBHOOK_MARKER } from '../generate/webhook/build.js';
import type { Diagnostic } from '../markers/types.js';
import { ApiReader } from '../reader/api-reader.js';
import { scanFileMarkers } from '../reader/file-markers.js';

/** Which generator input a project file is, by its folder (the defaults of `kubeforge manifests`). */
export type GeneratorInput = 'api' | 'controller' | undefined;

/** `rel` is root-relative with `/`: api/** and internal/** sources, not tests, declarations or generated files. */
export function generatorInputOf(rel: string): GeneratorInput {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (!/\.m?ts$/.test(name) || /\.d\.m?ts$|\.(test|spec)\.m?ts$/.test(name) || name.startsWith('zz_generated')) return undefined;
  if (rel.startsWith('api/')) return 'api';
  if (rel.startsWith('internal/')) return 'controller';
  return undefined;
}

/**
 * Diagnostics for the file `abs` of the project at `root`, positioned in that file. `readText` gives the text of
 * any project file (the editor's unsaved text where there is one).
 */
export function fileMarkerDiagnostics(root: string, abs: string, readText: (abs: string) => string): Diagnostic[] {
  const rel = path.relative(root, abs).split(path.sep).join('/');
  const input = generatorInputOf(rel);
  if (input === undefined) return [];
  let diagnostics: Diagnostic[];
  if (input === 'api') {
    const reader = new ApiReader(root, readText);
    reader.load(abs);
    reader.convertPending();
    diagnostics = reader.diagnostics;
  } else {
    const scanned = scanFileMarkers(rel, readText(abs));
    diagnostics = [...scanned.diagnostics, ...buildWebhooks(scanned.markers.filter((m) => m.name === WEBHOOK_MARKER)).diagnostics];
  }
  return diagnostics.filter((d) => d.position.file === rel && !d.message.startsWith('syntax error:'));
}
