/**
 * A client of tsserver's protocol for the editor tests: starts a made project's own
 * node_modules/typescript/lib/tsserver.js (as an editor using the workspace TypeScript does), sends requests as
 * JSON lines on stdin and reads the `Content-Length`-framed responses and events from stdout.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/** One diagnostic as tsserver sends it in `semanticDiag` / `suggestionDiag` events. */
export interface ProtocolDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code: number;
  category: string;
  source?: string;
}

interface Message {
  seq: number;
  type: 'response' | 'event';
  command?: string;
  request_seq?: number;
  success?: boolean;
  message?: string;
  event?: string;
  body?: unknown;
}

export class TsServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private seq = 0;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, { resolve: (body: unknown) => void; reject: (err: Error) => void }>();
  private readonly listeners: ((message: Message) => void)[] = [];
  private stderr = '';

  /**
   * Starts tsserver from `projectRoot`'s node_modules. tsserver looks for tsconfig plugins in the node_modules
   * holding its own typescript package; the tests link node_modules from the checkout, so Node is told to keep the
   * linked paths (`--preserve-symlinks`) and tsserver finds kubeforge in the project's node_modules, as it does
   * after a real `npm install`.
   */
  constructor(projectRoot: string, logFile: string, nodeOptions: string[] = []) {
    const tsserver = join(projectRoot, 'node_modules/typescript/lib/tsserver.js');
    const args = [...nodeOptions, '--preserve-symlinks', '--preserve-symlinks-main', tsserver, '--disableAutomaticTypingAcquisition', '--logVerbosity', 'verbose', '--logFile', logFile];
    this.child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, NODE_OPTIONS: '' } });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`tsserver exited (${code}): ${this.stderr}`));
      this.pending.clear();
    });
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, headerEnd).toString())![1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as Message;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      if (message.type === 'response' && message.request_seq !== undefined) {
        const waiting = this.pending.get(message.request_seq);
        this.pending.delete(message.request_seq);
        if (message.success === false) waiting?.reject(new Error(`${message.command}: ${message.message}`));
        else waiting?.resolve(message.body);
      }
      for (const listener of [...this.listeners]) listener(message);
    }
  }

  private send(command: string, args: unknown): number {
    const seq = ++this.seq;
    this.child.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    return seq;
  }

  /** Sends a request and resolves with its response body. */
  request<T>(command: string, args: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const seq = this.send(command, args);
      this.pending.set(seq, { resolve: resolve as (b: unknown) => void, reject });
    });
  }

  /** Sends a request without a response (open, change, close). */
  notify(command: string, args: unknown): void {
    this.send(command, args);
  }

  /** `geterr` for one file: resolves with its semantic and suggestion diagnostics once tsserver reports completion. */
  geterr(file: string): Promise<{ semantic: ProtocolDiagnostic[]; suggestion: ProtocolDiagnostic[] }> {
    return new Promise((resolve) => {
      const found = { semantic: [] as ProtocolDiagnostic[], suggestion: [] as ProtocolDiagnostic[] };
      const seq = this.send('geterr', { files: [file], delay: 0 });
      const listener = (message: Message): void => {
        const body = message.body as { file?: string; diagnostics?: ProtocolDiagnostic[]; request_seq?: number } | undefined;
        if (message.event === 'semanticDiag' && body?.file === file) found.semantic = body.diagnostics ?? [];
        if (message.event === 'suggestionDiag' && body?.file === file) found.suggestion = body.diagnostics ?? [];
        if (message.event === 'requestCompleted' && body?.request_seq === seq) {
          this.listeners.splice(this.listeners.indexOf(listener), 1);
          resolve(found);
        }
      };
      this.listeners.push(listener);
    });
  }

  /** Resolves when tsserver sends the event `name` (from now on). */
  event(name: string): Promise<unknown> {
    return new Promise((resolve) => {
      const listener = (message: Message): void => {
        if (message.type !== 'event' || message.event !== name) return;
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        resolve(message.body);
      };
      this.listeners.push(listener);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.notify('exit', {});
    await exited;
  }
}
