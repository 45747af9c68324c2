/**
 * Compares a committed project with a freshly made scaffold of it: every scaffold-owned file must be
 * byte-identical once the few edits a user is meant to make in them are replayed; each difference is
 * reported with the file's name and a readable line diff.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGeneratedOutput, listFiles } from './example-scaffold.js';
import { lineDiff } from './line-diff.js';

export const MAKE_MANIFESTS = /^\t\$\(KUBEFORGE\) manifests(.*)$/m;
export const MAKE_GENERATE = /^\t\$\(KUBEFORGE\) generate(.*)$/m;
const SCRIPT_MANIFESTS = /^(\s*"manifests": "kubeforge manifests)([^"]*)(",?)$/m;

/** The flags after `$(KUBEFORGE) <command>` in a Makefile (e.g. " --max-desc-len=0"), or an error naming the file. */
export function makeFlags(makefile: string, pattern: RegExp, file: string): string {
  const match = pattern.exec(makefile);
  if (!match) throw new Error(`${file}: no "${pattern.source}" recipe line`);
  return match[1];
}

/**
 * The committed text without the lines a user added to the scaffold's (kubebuilder users extend main), when
 * every scaffold line is still there, unchanged and in order; otherwise the committed text as it is.
 */
function withoutLinesAddedToMain(fresh: string, committed: string): string {
  const scaffold = fresh.split('\n');
  let next = 0;
  const kept = committed.split('\n').filter((line) => (next < scaffold.length && line === scaffold[next] ? (next++, true) : false));
  return next === scaffold.length ? kept.join('\n') : committed;
}

/**
 * The pair to compare byte for byte: the fresh file with the user's allowed line edits replayed (the
 * manifests flags in the Makefile and package.json), or the committed file with its allowed additions
 * taken out (samples the user added to config/samples/kustomization.yaml; dependencies and a `bin` added to
 * package.json; lines added to cmd/main.ts).
 */
function withAllowedEdits(path: string, fresh: string, committed: string, label: string, extraSamples: string[]): { fresh: string; committed: string } {
  if (path === 'Makefile') {
    const flags = MAKE_MANIFESTS.test(committed) ? makeFlags(committed, MAKE_MANIFESTS, `${label}/Makefile`) : '';
    // The scaffold's own flags (`--strict-markers`) come first; the user's are what the committed line adds after them.
    const replay = (line: string, freshFlags: string): string => `${line}${flags.startsWith(freshFlags) ? flags.slice(freshFlags.length) : flags}`;
    return { fresh: fresh.replace(MAKE_MANIFESTS, replay), committed };
  }
  if (path === 'package.json') {
    const flags = SCRIPT_MANIFESTS.exec(committed)?.[2] ?? '';
    const replayed = fresh.replace(SCRIPT_MANIFESTS, (_all, head: string, _old: string, tail: string) => `${head}${flags}${tail}`);
    return { fresh: replayed, committed: withoutAddedPackages(committed, replayed) };
  }
  if (path === 'cmd/main.ts') return { fresh, committed: withoutLinesAddedToMain(fresh, committed) };
  if (path === 'config/samples/kustomization.yaml') {
    const added = new Set(extraSamples.map((f) => `- ${f.slice('config/samples/'.length)}`));
    return { fresh, committed: committed.split('\n').filter((line) => !added.has(line)).join('\n') };
  }
  return { fresh, committed };
}

interface PackageJson {
  bin?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * The committed package.json without what a user adds to it as a Go project adds requires to go.mod:
 * dependencies the scaffold does not list, and a `bin` (an executable the project ships, e.g. a kubectl
 * plugin). Unchanged when there is nothing of the kind (or the file does not parse: the diff shows it).
 */
function withoutAddedPackages(committed: string, fresh: string): string {
  let ours: PackageJson;
  let scaffold: PackageJson;
  try {
    ours = JSON.parse(committed) as PackageJson;
    scaffold = JSON.parse(fresh) as PackageJson;
  } catch {
    return committed;
  }
  let removed = false;
  if (ours.bin !== undefined && scaffold.bin === undefined) {
    delete ours.bin;
    removed = true;
  }
  for (const field of ['dependencies', 'devDependencies'] as const) {
    for (const name of Object.keys(ours[field] ?? {})) {
      if (scaffold[field]?.[name] !== undefined) continue;
      delete ours[field]![name];
      removed = true;
    }
  }
  return removed ? `${JSON.stringify(ours, null, 2)}\n` : committed;
}

export interface DriftReport {
  /** One entry per drifted or missing file, naming it (`<label>/<path>`), with the diff. */
  problems: string[];
  /** How many scaffold-owned files were compared. */
  compared: number;
}

/** Lines a user added to scaffold-owned files, per path (an operator's own flags in cmd/flags.ts, its dependencies in package.json). */
export type AddedLines = Record<string, string[]>;

/**
 * The committed text without the lines the user added (each taken out once); a declared line that is not
 * there is a problem, so the list cannot go stale.
 */
function withoutAddedLines(committed: string, added: string[], where: string, problems: string[]): string {
  const lines = committed.split('\n');
  for (const line of added) {
    const at = lines.indexOf(line);
    if (at === -1) problems.push(`${where}: the added line ${JSON.stringify(line)} is not there (update the example's added lines)`);
    else lines.splice(at, 1);
  }
  return lines.join('\n');
}

/**
 * Compares `committedRoot` (shown as `label` in messages) with the scaffold made in `madeRoot`, skipping
 * `userEdited` paths and the generator outputs (checked with --check instead). Files only the committed
 * project has are its own additions and are not compared. `addedLines` are lines the user added to
 * scaffold-owned files: taken out before comparing, so any other change still shows.
 */
export function scaffoldDrift(madeRoot: string, committedRoot: string, label: string, userEdited: string[], addedLines: AddedLines = {}): DriftReport {
  const madeFiles = listFiles(madeRoot);
  const committedFiles = new Set(listFiles(committedRoot));
  const extraSamples = [...committedFiles].filter((f) => /^config\/samples\/[^/]+\.yaml$/.test(f) && !madeFiles.includes(f));
  const problems: string[] = [];
  let compared = 0;
  for (const path of madeFiles) {
    if (userEdited.includes(path) || isGeneratedOutput(path)) continue;
    if (!committedFiles.has(path)) {
      problems.push(`${label}/${path}: missing (the CLI makes it today)`);
      continue;
    }
    compared++;
    const committed = withoutAddedLines(readFileSync(join(committedRoot, path), 'utf8'), addedLines[path] ?? [], `${label}/${path}`, problems);
    const pair = withAllowedEdits(path, readFileSync(join(madeRoot, path), 'utf8'), committed, label, extraSamples);
    if (pair.fresh !== pair.committed) {
      problems.push(`${label}/${path} differs from what the CLI makes today (- CLI today, + committed):\n${lineDiff(pair.fresh, pair.committed)}`);
    }
  }
  return { problems, compared };
}
