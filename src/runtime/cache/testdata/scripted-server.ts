/**
 * A scripted API server for the watcher's and informer's unit tests: lists answer from a queue of pages (or
 * errors), and each watch request opens a stream the test writes lines to and ends. Every call is recorded.
 */
import { PassThrough } from 'node:stream';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { Client } from '../../client/client.js';
import type { Transport } from '../../client/transport.js';
import { isError } from '../../as-error.js';

export const cm = (name: string, rv: string, data: Record<string, string> = {}): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name, resourceVersion: rv }, data });

export type ListAnswer = { items: ConfigMap[]; resourceVersion: string; continue?: string } | Error;
export type WatchAnswer = { lines?: string[]; end?: boolean } | Error;

/** A watch line: `event('ADDED', cm('a', '5'))`, `event('BOOKMARK', { metadata: { resourceVersion: '9' } })`. */
export const event = (type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR', object: object): string => JSON.stringify({ type, object });

export interface OpenWatch {
  resourceVersion: string;
  response: PassThrough;
  write(...lines: string[]): void;
  end(): void;
  aborted: boolean;
}

/** Lists answer `lists` in turn (the last repeats); watches answer `watches` in turn (the last repeats). */
export function scriptedServer(lists: ListAnswer[], watches: WatchAnswer[] = [{}]) {
  const listCalls: string[] = [];
  const watchCalls: string[] = [];
  const opened: OpenWatch[] = [];
  const client = {
    async listPage(_kind: unknown, options: { resourceVersion?: string; limit?: number }, token?: string) {
      listCalls.push(`rv=${options.resourceVersion ?? ''} limit=${options.limit ?? '-'}${token ? ` continue=${token}` : ''}`);
      const answer = lists[Math.min(listCalls.length - 1, lists.length - 1)]!;
      if (isError(answer)) throw answer;
      return answer;
    },
  } as unknown as Client;
  const transport = {
    async stream(_path: string, query: { resourceVersion?: string }) {
      watchCalls.push(query.resourceVersion ?? '');
      const answer = watches[Math.min(watchCalls.length - 1, watches.length - 1)]!;
      if (isError(answer)) throw answer;
      const response = new PassThrough();
      const open: OpenWatch = {
        resourceVersion: query.resourceVersion ?? '',
        response,
        write: (...lines) => lines.forEach((l) => response.write(`${l}\n`)),
        end: () => response.end(),
        aborted: false,
      };
      opened.push(open);
      setImmediate(() => {
        open.write(...(answer.lines ?? []));
        if (answer.end) open.end();
      });
      return {
        response,
        abort: () => {
          open.aborted = true;
          response.destroy();
        },
      };
    },
  } as unknown as Transport;
  return { client, transport, listCalls, watchCalls, opened };
}

/** Waits (real time, bounded) until `cond` holds. */
export async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
