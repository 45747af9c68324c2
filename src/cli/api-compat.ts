/**
 * `kubeforge manifests --compat <git ref>`: the API-evolution check. Builds the CRDs of the API types at the
 * ref (their files taken out of git into a temporary folder, read by the same generator) and today's, compares
 * them (src/compat/compare-crds.ts), points each finding at the TypeScript that causes it, applies the
 * acknowledgements of `api-compat.yaml`, and exits 1 when a breaking change is not acknowledged. Writes nothing.
 */
import { resolve } from 'node:path';
import { splitWarnings, type Diagnostic } from '../markers/types.js';
import type { ApiModel } from '../model/index.js';
import type { CustomResourceDefinition } from '../generate/crd/index.js';
import { ACKNOWLEDGEMENT_FILE, readAcknowledgements, type Acknowledgement } from '../compat/acknowledgements.js';
import { compareCrds } from '../compat/compare-crds.js';
import type { LocatedFinding } from '../compat/findings.js';
import { snapshotAt } from '../compat/git-snapshot.js';
import { locateSource } from '../compat/source-locator.js';
import { findProjectRoot, noProjectMessage } from '../scaffold/project-root.js';
import { loadGeneratorModules, orderedDiagnosticLines, processOutput, type RunOutput } from './generator-run.js';
import { projectPaths, projectRootProblem } from './project-paths.js';

export interface ApiCompatOptions {
  root: string;
  /** The git ref (commit, branch, tag) whose API is the baseline. */
  ref: string;
  /** Folders with API types; default `api`. */
  paths?: string[];
  allowDangerousTypes?: boolean;
  generateEmbeddedObjectMeta?: boolean;
  strictMarkers?: boolean;
}

interface BuiltApi {
  model: ApiModel;
  crds: CustomResourceDefinition[];
  errors: Diagnostic[];
}

async function buildApi(root: string, options: ApiCompatOptions): Promise<BuiltApi> {
  const { loadApiProject, buildCrds } = await loadGeneratorModules();
  const loaded = await loadApiProject({ root, apiPaths: projectPaths(options.paths, 'api') });
  const built = buildCrds(loaded.model, {
    allowDangerousTypes: options.allowDangerousTypes ?? false,
    generateEmbeddedObjectMeta: options.generateEmbeddedObjectMeta ?? false,
  });
  const { errors } = splitWarnings([...loaded.diagnostics, ...built.diagnostics], options.strictMarkers ?? false);
  return { model: loaded.model, crds: built.crds.map((c) => c.document), errors };
}

const EMPTY_MODEL = (root: string): ApiModel => ({ root, groups: [], types: {} });

function formatPosition(finding: LocatedFinding, ref: string): string {
  const p = finding.position;
  if (!p) return `${finding.crd}`;
  return `${finding.atRef ? `${ref}:` : ''}${p.file}:${p.line}:${p.column}`;
}

function describe(finding: LocatedFinding): string {
  return [finding.crd, finding.version, finding.path].filter((part) => part !== undefined && part !== '').join(' ');
}

/** Runs the check; resolves to the exit status (1 on an unacknowledged breaking change or any error). */
export async function runApiCompat(options: ApiCompatOptions, output: RunOutput = processOutput): Promise<number> {
  const fail = (message: string): number => {
    output.err(`kubeforge manifests --compat: ${message}`);
    return 1;
  };
  const root = resolve(options.root);
  const problem = projectRootProblem(options.root) ?? (findProjectRoot(root) === undefined ? noProjectMessage(root) : undefined);
  if (problem !== undefined) return fail(problem);
  const acknowledged = readAcknowledgements(root);
  if (!acknowledged.ok) return fail(acknowledged.error);
  const snapshot = snapshotAt(root, options.ref);
  if (!snapshot.ok) return fail(snapshot.error);
  try {
    const today = await buildApi(root, options);
    if (today.errors.length > 0) {
      for (const line of orderedDiagnosticLines(root, today.errors)) output.err(line);
      return fail(`today's API types have errors (above); nothing was compared`);
    }
    const { dir, commit, existed } = snapshot.snapshot;
    const before = existed ? await buildApi(dir, options) : { model: EMPTY_MODEL(dir), crds: [], errors: [] };
    if (before.errors.length > 0) {
      for (const line of orderedDiagnosticLines(dir, before.errors)) output.err(`${options.ref}:${line}`);
      return fail(`the API types at ${options.ref} do not generate with this kubeforge (above); nothing was compared`);
    }
    if (!existed) output.out(`The project folder did not exist at ${options.ref}: every kind is new.`);
    const findings: LocatedFinding[] = compareCrds(before.crds, today.crds).map((finding) => {
      const model = finding.hint.side === 'ref' ? before.model : today.model;
      const position = locateSource(model, finding.hint);
      return { ...finding, ...(position ? { position } : {}), ...(finding.hint.side === 'ref' ? { atRef: true } : {}) };
    });
    return report(findings, acknowledged.acknowledgements, options.ref, commit, output);
  } finally {
    snapshot.snapshot.remove();
  }
}

function report(findings: LocatedFinding[], acknowledgements: Acknowledgement[], ref: string, commit: string, output: RunOutput): number {
  const byId = new Map(acknowledgements.map((a) => [a.id, a]));
  const breaking = findings.filter((f) => f.breaking && !byId.has(f.id));
  const accepted = findings.filter((f) => f.breaking && byId.has(f.id));
  const compatible = findings.filter((f) => !f.breaking);
  const print = (finding: LocatedFinding, status: string, extra?: string): void => {
    output.out(`${formatPosition(finding, ref)}: ${status}: ${describe(finding)}: ${finding.change} — ${finding.why}`);
    output.out(`  id: ${finding.id}${extra ? `\n  ${extra}` : ''}`);
  };
  for (const f of breaking) print(f, 'breaking');
  for (const f of accepted) print(f, 'breaking, acknowledged', `reason (${ACKNOWLEDGEMENT_FILE}:${byId.get(f.id)!.line}): ${byId.get(f.id)!.reason}`);
  for (const f of compatible) print(f, 'non-breaking', byId.has(f.id) ? `acknowledged too (${ACKNOWLEDGEMENT_FILE}:${byId.get(f.id)!.line})` : undefined);
  const ids = new Set(findings.map((f) => f.id));
  for (const a of acknowledgements) {
    if (!ids.has(a.id)) output.err(`${ACKNOWLEDGEMENT_FILE}:${a.line}: warning: "${a.id}" matches no finding against ${ref} (remove it once that change is released)`);
  }
  const summary =
    `kubeforge manifests --compat ${ref} (${commit.slice(0, 12)}): ` +
    `${breaking.length + accepted.length} breaking (${accepted.length} acknowledged), ${compatible.length} non-breaking`;
  if (breaking.length === 0) {
    output.out(summary);
    return 0;
  }
  output.err(
    `${summary}; ${breaking.length} breaking change${breaking.length === 1 ? '' : 's'} not acknowledged: ` +
      `undo ${breaking.length === 1 ? 'it' : 'them'}, or accept ${breaking.length === 1 ? 'it' : 'them'} in ${ACKNOWLEDGEMENT_FILE} (acknowledged: - id: <id> reason: <why>)`,
  );
  return 1;
}
