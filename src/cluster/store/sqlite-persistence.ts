/**
 * The local cluster's data directory: every object, the resourceVersion counter and the cluster's
 * credentials in one SQLite database (`<dir>/cluster.db`) through better-sqlite3 — an embedded,
 * crash-safe, synchronous database, as k3s keeps Kubernetes in SQLite through kine. Synchronous is the
 * point: ObjectStore writes each change here inside one transaction before it applies it in memory, so
 * by the time the HTTP answer leaves, the change is on disk. WAL journal with `synchronous = FULL`: the
 * WAL is fsynced at every commit, so an acknowledged write survives kill -9 and also an OS crash or power
 * loss (NORMAL would survive kill -9 only). History is not kept: after a restart, watches and exact
 * lists from an older resourceVersion get 410 Expired, as after a compaction.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { KubeObject } from './object-store.js';

/** One committed change, as the store hands it over before applying it. */
export interface PersistedChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  bucket: string;
  rv: number;
  object: KubeObject;
}

/** Where the store makes its changes durable (write-through, synchronous, before the change is visible). */
export interface StorePersistence {
  write(change: PersistedChange): void;
}

/** What a data directory held at start. */
export interface PersistedState {
  resourceVersion: number;
  objects: Array<{ bucket: string; object: KubeObject }>;
}

export type DurabilityMode = 'FULL' | 'NORMAL';

export const databaseFileName = 'cluster.db';

/** Another process (or another cluster of this one) holds the data directory. */
export class DataDirectoryInUseError extends Error {
  constructor(readonly dir: string) {
    super(`data directory ${dir} is in use by another local cluster (its database is locked): stop that cluster or choose another --data-dir`);
    this.name = 'DataDirectoryInUseError';
  }
}

export class SqliteClusterData implements StorePersistence {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly setMetaStatement: Database.Statement;
  private readonly writeChange: (change: PersistedChange) => void;

  /** Opens (creating) `<dir>/cluster.db`; `fresh` deletes what the directory held first. */
  constructor(readonly dir: string, options: { fresh?: boolean; synchronous?: DurabilityMode } = {}) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, databaseFileName);
    this.db = new Database(file, { timeout: 0 });
    // One cluster per directory: EXCLUSIVE locking mode keeps the lock SQLite takes on the first write for as
    // long as the connection lives — an OS file lock, so it goes with the process even on kill -9, and a
    // second cluster on the same directory fails at once instead of writing beside the first. (Set before
    // WAL is first used, so WAL needs no shared-memory file.)
    this.db.pragma('locking_mode = EXCLUSIVE');
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.exec('BEGIN IMMEDIATE; COMMIT');
    } catch (err) {
      this.db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirectoryInUseError(dir);
      throw err;
    }
    this.db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS objects (bucket TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (bucket, namespace, name)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, user TEXT NOT NULL) WITHOUT ROWID;
    `);
    // --fresh empties the directory's database under the lock (removing the files could pull them from under
    // a cluster that still runs on them).
    if (options.fresh) this.db.exec('DELETE FROM objects; DELETE FROM meta; DELETE FROM tokens;');
    this.upsert = this.db.prepare('INSERT INTO objects (bucket, namespace, name, rv, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT (bucket, namespace, name) DO UPDATE SET rv = excluded.rv, body = excluded.body');
    this.remove = this.db.prepare('DELETE FROM objects WHERE bucket = ? AND namespace = ? AND name = ?');
    this.setMetaStatement = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.writeChange = this.db.transaction((change: PersistedChange) => {
      const { namespace = '', name } = change.object.metadata;
      if (change.type === 'DELETED') this.remove.run(change.bucket, namespace, name);
      else this.upsert.run(change.bucket, namespace, name, change.rv, JSON.stringify(change.object));
      this.setMetaStatement.run('resourceVersion', String(change.rv));
    });
  }

  /** The journal and sync modes in force (for tests and the start banner). */
  get durability(): { journalMode: string; synchronous: number } {
    return { journalMode: this.db.pragma('journal_mode', { simple: true }) as string, synchronous: this.db.pragma('synchronous', { simple: true }) as number };
  }

  /** The stored objects and counter; undefined for a directory that never held a cluster. */
  load(): PersistedState | undefined {
    const rv = this.meta('resourceVersion');
    if (rv === undefined) return undefined;
    const rows = this.db.prepare('SELECT bucket, body FROM objects ORDER BY bucket, namespace, name').all() as Array<{ bucket: string; body: string }>;
    return { resourceVersion: Number(rv), objects: rows.map((r) => ({ bucket: r.bucket, object: JSON.parse(r.body) as KubeObject })) };
  }

  write(change: PersistedChange): void {
    this.writeChange(change);
  }

  meta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.setMetaStatement.run(key, value);
  }

  /** Bearer tokens the cluster accepted, with their users (JSON). */
  tokens(): Array<{ token: string; user: string }> {
    return this.db.prepare('SELECT token, user FROM tokens').all() as Array<{ token: string; user: string }>;
  }

  saveToken(token: string, user: string): void {
    this.db.prepare('INSERT INTO tokens (token, user) VALUES (?, ?) ON CONFLICT (token) DO UPDATE SET user = excluded.user').run(token, user);
  }

  deleteToken(token: string): void {
    this.db.prepare('DELETE FROM tokens WHERE token = ?').run(token);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
