/**
 * Turns kubebuilder-style path flags (`api/...`, `./internal/...`, `api`) into folders relative to the
 * project root, and lists the TypeScript sources under them, for the generator commands.
 */
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** `api/...` → `api`; `./internal/` → `internal`; comma-separated values are split. */
export function projectPaths(flags: string[] | undefined, fallback: string): string[] {
  const values = (flags ?? [fallback]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return values.map((v) => v.replace(/\/\.\.\.$/, '').replace(/^\.\//, '').replace(/\/$/, '') || '.');
}

/** Every `.ts` source (not `.d.ts`, tests or generated files) under the folders, as sorted root-relative paths. */
export function listTypeScriptSources(root: string, folders: string[]): string[] {
  const found = new Set<string>();
  const visit = (abs: string): void => {
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const entry of readdirSync(abs)) if (entry !== 'node_modules' && !entry.startsWith('.')) visit(join(abs, entry));
      return;
    }
    const name = abs.split(sep).pop()!;
    if (/\.m?ts$/.test(name) && !/\.d\.m?ts$|\.(test|spec)\.m?ts$/.test(name) && !name.startsWith('zz_generated')) {
      found.add(relative(root, abs).split(sep).join('/'));
    }
  };
  for (const folder of folders) visit(join(root, folder));
  return [...found].sort();
}

/** Why `root` cannot be a project root (missing, or not a folder), or undefined when it can. */
export function projectRootProblem(root: string): string | undefined {
  if (!existsSync(root)) return `--root ${root}: no such folder`;
  if (!statSync(root).isDirectory()) return `--root ${root}: not a folder`;
  return undefined;
}
