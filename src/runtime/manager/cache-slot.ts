/**
 * The manager's current cache as its client's CacheReader: the manager puts a fresh cache in when it stops
 * (a restart gets new informers), and the client reads whichever is in. A class with prototype methods, not
 * closures over the manager: every reconcile's read goes through it, and a closure's compiled code dies with
 * its manager, so each new manager would compile the read path again (keep-shape.ts).
 */
import type { Cache } from '../cache/cache.js';
import type { CacheReader, ListOptions, ObjectKey } from '../client/client.js';
import type { KindInfo } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { keepShape } from '../keep-shape.js';

export class CacheSlot implements CacheReader {
  constructor(public cache: Cache) {}

  serves(info: KindInfo): boolean {
    return this.cache.serves(info);
  }

  get<T extends KubeObject>(info: KindInfo<T>, key: ObjectKey): T | undefined | Promise<T | undefined> {
    return this.cache.read(info, key);
  }

  list<T extends KubeObject>(info: KindInfo<T>, options: ListOptions): Promise<T[]> {
    return this.cache.list(info, options);
  }
}

keepShape(new CacheSlot(undefined as never));
