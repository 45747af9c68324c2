/**
 * What map functions, handlers and predicates receive with each event (controller-runtime hands them a
 * `context.Context`): the manager's client for reads — served by the cache for the kinds it watches, so a
 * map function can list through an index instead of reaching into an informer — and the controller's logger.
 */
import pino, { type Logger } from 'pino';
import type { ListOptions, ObjectKey } from '../client/client.js';
import type { KindRef } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';

/** The reads an event's context offers (the manager's Client is one). */
export interface ObjectReader {
  get<T extends KubeObject>(kind: KindRef<T>, key: ObjectKey): Promise<T>;
  list<T extends KubeObject>(kind: KindRef<T>, options?: ListOptions): Promise<T[]>;
}

export interface EventContext {
  /** The manager's client: reads of kinds the cache watches come from the cache (and its indexes). */
  client: ObjectReader;
  /** The controller's logger. */
  log: Logger;
}

const noClient: ObjectReader = {
  get: () => Promise.reject(new Error('this handler was called outside a controller: its context has no client')),
  list: () => Promise.reject(new Error('this handler was called outside a controller: its context has no client')),
};

/** The context of a handler or predicate called outside a controller (a test): a silent logger and no client. */
export const detachedEventContext: EventContext = { client: noClient, log: pino({ level: 'silent' }) };
