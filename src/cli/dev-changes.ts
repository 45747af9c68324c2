/**
 * What a saved file means to `kubeforge dev`: a change under api/ regenerates manifests and deep copies,
 * re-applies the CRDs and restarts the manager; a change to other compiled code (cmd/, internal/) rebuilds
 * and restarts (and regenerates manifests when its `+kubebuilder:` markers changed: RBAC, webhooks); the
 * manager's config (config/manager) only restarts it; tsconfig and package.json changes rebuild with the
 * settings read again. Tests, the generators' own outputs and build output change nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ChangeKind = 'api' | 'code' | 'restart' | 'settings' | 'ignored';

/** Folders `dev` does not watch at all. */
export const UNWATCHED_FOLDERS = ['node_modules', 'dist', '.kubeforge', '.git', 'coverage'];

/** Files the generators write: written by `dev` itself, never a reason to run again. */
function isGeneratorOutput(path: string): boolean {
  return /(^|\/)zz_generated[^/]*\.ts$/.test(path) || path.startsWith('config/crd/bases/') || path === 'config/rbac/role.yaml' || path === 'config/webhook/manifests.yaml';
}

/** The kind of change of a root-relative path (with `/` separators). */
export function classifyChange(path: string): ChangeKind {
  const top = path.split('/')[0]!;
  if (UNWATCHED_FOLDERS.includes(top) || isGeneratorOutput(path)) return 'ignored';
  if (/\.(test|spec)\.m?ts$/.test(path) || /\.d\.m?ts$/.test(path)) return 'ignored';
  if (top === 'api' && /\.m?ts$/.test(path)) return 'api';
  if ((top === 'cmd' || top === 'internal') && /\.m?ts$/.test(path)) return 'code';
  if (path.startsWith('config/manager/')) return 'restart';
  if (path === 'package.json' || /^tsconfig(\.[\w-]+)?\.json$/.test(path)) return 'settings';
  return 'ignored';
}

/** The strongest of several changes: one api change means the whole api cycle. */
export function combinedChange(kinds: ChangeKind[]): ChangeKind {
  for (const kind of ['api', 'settings', 'code', 'restart'] as const) if (kinds.includes(kind)) return kind;
  return 'ignored';
}

/** The `+kubebuilder:` marker lines of each controller source, to tell when `manifests` must run again. */
export class MarkerLines {
  private readonly seen = new Map<string, string>();

  constructor(private readonly root: string) {}

  private read(path: string): string {
    const abs = join(this.root, path);
    if (!existsSync(abs)) return '';
    return readFileSync(abs, 'utf8')
      .split('\n')
      .filter((line) => /^\s*\/\/\s*\+kubebuilder:/.test(line))
      .map((line) => line.trim())
      .join('\n');
  }

  /** Records the markers of `path` as they are now. */
  remember(path: string): void {
    this.seen.set(path, this.read(path));
  }

  /** True when the markers of `path` differ from the last ones recorded (and records the new ones). */
  changed(path: string): boolean {
    const now = this.read(path);
    const before = this.seen.get(path);
    this.seen.set(path, now);
    return before === undefined ? now !== '' : before !== now;
  }
}
