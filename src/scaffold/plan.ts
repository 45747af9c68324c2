/**
 * A scaffold plan: every file a command would create or change, built in memory first and checked as a
 * whole (no overwrite without --force), then written in one go — or only printed with --dry-run. A write
 * failure halfway restores every file already touched, so the project is left as it was.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** One planned file; `path` is relative to the project root with `/` separators. */
export interface PlannedChange {
  path: string;
  content: string;
  action: 'create' | 'overwrite' | 'update';
}

/** A plan the user must fix first (a file exists, a marker is missing): nothing was written. */
export class ScaffoldConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScaffoldConflictError';
  }
}

export class ScaffoldPlan {
  private readonly changes = new Map<string, PlannedChange>();
  private readonly conflicts: string[] = [];

  constructor(
    readonly root: string,
    private readonly force = false,
  ) {}

  /** The file as the plan leaves it: planned content, else the disk, else undefined. */
  read(path: string): string | undefined {
    const planned = this.changes.get(path);
    if (planned) return planned.content;
    const abs = join(this.root, path);
    return existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
  }

  existsOnDisk(path: string): boolean {
    return existsSync(join(this.root, path));
  }

  /** A new file; an existing one is a conflict unless --force. */
  create(path: string, content: string): void {
    if (this.existsOnDisk(path)) {
      if (!this.force) {
        this.conflicts.push(`${path} already exists (use --force to overwrite it)`);
        return;
      }
      this.put({ path, content, action: 'overwrite' });
      return;
    }
    this.put({ path, content, action: 'create' });
  }

  /** A file made once and then owned by the user (kubebuilder's IfExistsAction Skip): kept when present. */
  createIfMissing(path: string, content: string): void {
    if (this.read(path) !== undefined) return;
    this.put({ path, content, action: 'create' });
  }

  /** New content for a file the project (or this plan) already has; no change when the bytes are equal. */
  update(path: string, content: string): void {
    const current = this.read(path);
    if (current === undefined) throw new Error(`scaffold bug: update of ${path}, which does not exist`);
    if (current === content) return;
    const planned = this.changes.get(path);
    this.put({ path, content, action: planned ? planned.action : 'update' });
  }

  /** Records a problem that must stop the whole command. */
  conflict(message: string): void {
    this.conflicts.push(message);
  }

  list(): PlannedChange[] {
    return [...this.changes.values()];
  }

  /** Throws every conflict at once, so one run shows the user all of them. */
  assertNoConflicts(): void {
    if (this.conflicts.length > 0) {
      throw new ScaffoldConflictError(`nothing was written:\n  ${this.conflicts.join('\n  ')}`);
    }
  }

  private put(change: PlannedChange): void {
    if (change.path.startsWith('/') || change.path.split('/').includes('..')) throw new Error(`scaffold bug: path outside the project: ${change.path}`);
    this.changes.set(change.path, change);
  }

  /** The dry-run listing: one `create|overwrite|update <path>` line per file. */
  describe(): string[] {
    return this.list().map((c) => `${c.action} ${c.path}`);
  }

  /** Writes every change (each through a temp file and a rename); on a failure restores what it touched. */
  write(): void {
    this.assertNoConflicts();
    const done: Array<{ path: string; before: string | undefined }> = [];
    try {
      for (const change of this.list()) {
        const abs = join(this.root, change.path);
        done.push({ path: abs, before: existsSync(abs) ? readFileSync(abs, 'utf8') : undefined });
        writeAtomically(abs, change.content);
      }
    } catch (err) {
      for (const { path, before } of done.reverse()) {
        try {
          if (before === undefined) rmSync(path, { force: true });
          else writeAtomically(path, before);
        } catch {
          // The failed path itself may be unreachable (ENOTDIR); every other file is still restored.
        }
      }
      throw err;
    }
  }
}

function writeAtomically(target: string, content: string): void {
  mkdirSync(dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, content, 'utf8');
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
