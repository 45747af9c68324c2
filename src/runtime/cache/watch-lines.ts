/**
 * A watch response as lines to pull: the socket pushes chunks, the watcher (watcher.ts) pulls whole lines
 * (one JSON event each). Lines are cut from the raw bytes — one Buffer→string conversion per event, none for
 * the chunk as a whole, a carried-over partial line only when a chunk splits one — and a puller waits on one
 * promise per chunk, not per line.
 *
 *   const lines = new WatchLines(handle.response, () => undefined);
 *   for (;;) {
 *     const line = lines.next();
 *     if (line !== undefined) use(JSON.parse(line));
 *     else if (!(await lines.more())) break;
 *   }
 */
import type { IncomingMessage } from 'node:http';
import { WatchEndedError } from './watch-event.js';
import { PassThrough } from 'node:stream';
import { keepShape } from '../keep-shape.js';

export class WatchLines {
  private lines: string[] = [];
  private head = 0;
  private carry: Buffer | undefined;
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(response: IncomingMessage | NodeJS.ReadableStream, closedIsError: () => Error | undefined) {
    response.on('data', (chunk: Buffer) => this.push(chunk));
    response.on('end', () => this.end(undefined));
    response.on('aborted', () => this.end(new WatchEndedError('watch aborted')));
    response.on('error', (err: Error) => this.end(err));
    response.on('close', () => this.end(closedIsError()));
  }

  /** The next whole line received, or undefined when none is waiting. */
  next(): string | undefined {
    if (this.head < this.lines.length) return this.lines[this.head++];
    if (this.head > 0) {
      this.lines = [];
      this.head = 0;
    }
    return undefined;
  }

  /** True when a line is waiting or the stream ended: next() or end() answers without waiting. */
  ready(): boolean {
    return this.head < this.lines.length || this.ended;
  }

  /** Resolves when more lines arrived or the stream ended (a plain promise: no async function per wait). */
  arrival(): Promise<void> {
    return this.ready() ? Promise.resolve() : new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** After the lines ran out: undefined while the stream is open, else how it ended (null: normally). */
  endState(): Error | null | undefined {
    if (!this.ended || this.head < this.lines.length) return undefined;
    return this.error ?? null;
  }

  /** Waits for more lines; resolves false when the stream ended (throws its error, if it failed). */
  async more(): Promise<boolean> {
    await this.arrival();
    if (this.head < this.lines.length) return true;
    if (this.error) throw this.error;
    return false;
  }

  /** Ends the stream now with `err` (a stall, a stop), dropping lines not yet pulled. */
  fail(err: Error): void {
    this.lines = [];
    this.head = 0;
    this.end(err);
  }

  private push(chunk: Buffer): void {
    if (this.ended) return;
    const before = this.lines.length;
    let start = 0;
    let newline = chunk.indexOf(10);
    const carry = this.carry;
    if (carry !== undefined) {
      // A line split across chunks: joined with this chunk's first line only, never the whole chunk.
      if (newline < 0) {
        this.carry = Buffer.concat([carry, chunk]);
        return;
      }
      this.carry = undefined;
      this.pushLine(Buffer.concat([carry, chunk.subarray(0, newline)]), 0, carry.length + newline);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    for (; newline >= 0; newline = chunk.indexOf(10, start)) {
      this.pushLine(chunk, start, newline);
      start = newline + 1;
    }
    if (start < chunk.length) this.carry = chunk.subarray(start);
    if (this.lines.length > before) this.signal();
  }

  /** The line in `data` from `start` to the newline at `newline` (a CR before it dropped; empty lines skipped). */
  private pushLine(data: Buffer, start: number, newline: number): void {
    const end = newline > start && data[newline - 1] === 13 ? newline - 1 : newline;
    if (end > start) this.lines.push(data.toString('utf8', start, end));
  }

  private end(err: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.error = err;
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

// One instance lives on between watches, so the line splitter's compiled code stays valid (keep-shape.ts).
keepShape(new WatchLines(new PassThrough(), () => undefined));
// The chunks node's HTTP parser hands out are Uint8Arrays made in C++ and given Buffer.prototype afterwards, a
// hidden class of their own (not FastBuffer's) that V8 holds only weakly: it died whenever no chunk was alive (at
// the GC after a burst), and pushLine and node's stream code compiled for it were deoptimized for "weak objects"
// every time. One buffer of that class kept alive keeps it (setPrototypeOf takes the same cached transition).
keepShape(Object.setPrototypeOf(new Uint8Array(0), Buffer.prototype) as Buffer);
