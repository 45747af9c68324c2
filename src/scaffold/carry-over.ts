/**
 * What `kubeforge alpha generate` keeps of a project when it re-scaffolds it with the current templates:
 * the user's files (every file the scaffold does not make, the files it marks for the user, the outputs
 * generated from the user's code) carried over; scaffold-owned files taken fresh; files earlier scaffolds
 * made whose code now lives in kubeforge dropped, with imports of them pointed at kubeforge; package.json
 * fresh but keeping the project's own dependencies and scripts.
 */
import { posix } from 'node:path';

/** Project files keyed by their project-relative path (`/` separators). */
export type ProjectFiles = Map<string, Buffer>;

/** Files earlier scaffolds copied into every project, now in kubeforge, and the module that replaces each. */
export const RETIRED_SCAFFOLD_FILES: ReadonlyMap<string, string> = new Map([
  ['cmd/flags.ts', 'kubeforge/runtime (parseManagerFlags, managerUsage, startFailureMessage)'],
  ['internal/webhook/admission.ts', 'kubeforge/runtime (CustomDefaulter, CustomValidator)'],
]);

/** Imports of a retired file that user code may hold, and what they import from now. */
const RETIRED_IMPORTS: ReadonlyMap<string, string> = new Map([['internal/webhook/admission.ts', 'kubeforge/runtime']]);

/**
 * A made file is the user's to edit when the scaffold says so in it: kubebuilder's `TODO(user)` comments
 * or the types file's "EDIT THIS FILE!" banner; the project's README.md is the user's too.
 */
export function isUserEdited(path: string, freshContent: string): boolean {
  return path === 'README.md' || freshContent.includes('TODO(user)') || freshContent.includes('EDIT THIS FILE!');
}

/** Written by `kubeforge manifests` / `generate` from the user's types and markers. */
export function isGeneratedOutput(path: string): boolean {
  return /^config\/crd\/bases\/[^/]+\.yaml$/.test(path) || path === 'config/rbac/role.yaml' || path === 'config/webhook/manifests.yaml' || /^api\/(.+\/)?zz_generated\.deepcopy\.ts$/.test(path);
}

/** What carrying over decided, path by path (each list sorted). */
export interface CarryOverResult {
  files: ProjectFiles;
  /** The user's files kept as they were (or with imports of retired files rewritten). */
  carried: string[];
  /** Carried files whose imports of a retired scaffold file now name kubeforge. */
  rewritten: string[];
  /** Scaffold-owned files the project had changed: the fresh scaffold's version replaces them. */
  replaced: string[];
  /** Retired scaffold files left out. */
  retired: string[];
  /** Files the fresh scaffold makes that the project did not have. */
  added: string[];
}

/** `import … from '<relative path to a retired file>.js'` in `path`'s code, pointed at what replaces it. */
export function rewriteRetiredImports(path: string, text: string): string {
  if (!/\.(ts|mts|cts)$/.test(path)) return text;
  return text.replace(/(from\s+)(['"])(\.{1,2}\/[^'"]+)\2/g, (whole, from: string, quote: string, specifier: string) => {
    const target = posix.normalize(posix.join(posix.dirname(path), specifier)).replace(/\.js$/, '.ts');
    const replacement = RETIRED_IMPORTS.get(target);
    return replacement === undefined ? whole : `${from}${quote}${replacement}${quote}`;
  });
}

type PackageJson = { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; scripts?: Record<string, string>; [key: string]: unknown };

/**
 * The fresh package.json (its kubeforge dependency and tool versions the current ones) with the project's own
 * additions kept: dependencies, devDependencies and scripts the scaffold does not make.
 */
export function mergePackageJson(old: string, fresh: string): string {
  const before = JSON.parse(old) as PackageJson;
  const after = JSON.parse(fresh) as PackageJson;
  for (const section of ['dependencies', 'devDependencies', 'scripts'] as const) {
    const kept = Object.entries(before[section] ?? {}).filter(([name]) => !(name in (after[section] ?? {})));
    if (kept.length > 0) after[section] = { ...(after[section] ?? {}), ...Object.fromEntries(kept) };
  }
  const indent = /^\{\n( +)"/.exec(fresh)?.[1] ?? '  ';
  return `${JSON.stringify(after, null, indent)}\n`;
}

/** The re-scaffolded project: `fresh` (made by the current templates from PROJECT) with the user's files of `old` carried over. */
export function carryOver(old: ProjectFiles, fresh: ProjectFiles): CarryOverResult {
  const files: ProjectFiles = new Map(fresh);
  const result: Omit<CarryOverResult, 'files'> = { carried: [], rewritten: [], replaced: [], retired: [], added: [] };
  for (const [path, content] of old) {
    if (RETIRED_SCAFFOLD_FILES.has(path) && !fresh.has(path)) {
      result.retired.push(path);
      continue;
    }
    const made = fresh.get(path);
    if (path === 'package.json' && made !== undefined) {
      files.set(path, Buffer.from(mergePackageJson(content.toString('utf8'), made.toString('utf8'))));
      continue;
    }
    const users = made === undefined || isGeneratedOutput(path) || isUserEdited(path, made.toString('utf8'));
    if (!users) {
      if (!made.equals(content)) result.replaced.push(path);
      continue;
    }
    const text = content.toString('utf8');
    const rewritten = rewriteRetiredImports(path, text);
    if (rewritten !== text) result.rewritten.push(path);
    files.set(path, rewritten === text ? content : Buffer.from(rewritten));
    result.carried.push(path);
  }
  for (const path of fresh.keys()) if (!old.has(path)) result.added.push(path);
  for (const list of Object.values(result)) list.sort();
  return { files, ...result };
}
