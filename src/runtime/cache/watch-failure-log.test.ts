/** WatchFailureLog: one warn per failure state, not per retry; the ways a server goes away are one state. */
import { Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { ApiError } from '../client/api-error.js';
import { WatchFailureLog, failureState } from './watch-failure-log.js';

function socketError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function recorder(): { lines: Array<{ level: number; msg: string; failedTries?: number }>; log: WatchFailureLog } {
  const lines: Array<{ level: number; msg: string; failedTries?: number }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, log: new WatchFailureLog('ConfigMap', pino({ level: 'info' }, sink)) };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

test('a hung-up watch, then refused connections, then resets: one warning, then one recovery line', async () => {
  const { lines, log } = recorder();
  log.failed(socketError('socket hang up', 'ECONNRESET'), 5);
  log.failed(socketError('connect ECONNREFUSED 127.0.0.1:6443', 'ECONNREFUSED'), 10);
  log.failed(socketError('connect ECONNREFUSED 127.0.0.1:6443', 'ECONNREFUSED'), 20);
  log.failed(socketError('read ETIMEDOUT', 'ETIMEDOUT'), 20);
  log.recovered();
  await flush();
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    [40, 'watch failed, retrying with backoff'],
    [30, 'watch re-established'],
  ]);
  expect(lines[1]!.failedTries).toBe(4);
});

test('a different state is warned again: unreachable, then 403, then a certificate error', async () => {
  const { lines, log } = recorder();
  log.failed(socketError('connect ECONNREFUSED 127.0.0.1:6443', 'ECONNREFUSED'), 5);
  log.failed(new ApiError(403, { reason: 'Forbidden', message: 'configmaps is forbidden' }, 'watch'), 10);
  log.failed(new ApiError(403, { reason: 'Forbidden', message: 'configmaps is forbidden' }, 'watch'), 20);
  log.failed(socketError('certificate has expired', 'CERT_HAS_EXPIRED'), 20);
  await flush();
  expect(lines.filter((l) => l.level === 40)).toHaveLength(3);
  expect(failureState(new Error('socket hang up'))).toBe('unreachable');
  expect(failureState(socketError('x', 'CERT_HAS_EXPIRED'))).toBe('CERT_HAS_EXPIRED');
  expect(failureState(runInNewContext(`new Error('socket hang up')`))).toBe('unreachable'); // an Error of another realm (Node's, seen from jest)
  expect(failureState(runInNewContext(`new RangeError('x')`))).toBe('RangeError');
});
