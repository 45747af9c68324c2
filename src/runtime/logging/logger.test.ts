/**
 * The manager's logger as controller-runtime's zap flags make it: production JSON at info with stack traces
 * from error; development console lines (pino-pretty) at debug with stack traces from warn; --zap-encoder,
 * --zap-log-level and --zap-stacktrace-level overriding either; colour on a real terminal (a pty made by
 * `script`) or when FORCE_COLOR asks, never into a pipe.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { newLogger, pinoLevel, type LoggerOptions } from './logger.js';

/** A destination collecting what the logger writes; `tty` makes it claim to be a terminal. */
function sink(tty = false): { stream: Writable & { isTTY?: boolean }; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY?: boolean };
  if (tty) stream.isTTY = true;
  return { stream, text: () => chunks.join('') };
}

function logged(options: LoggerOptions, write: (log: ReturnType<typeof newLogger>) => void): string {
  const out = sink();
  const log = newLogger({ ...options, destination: out.stream });
  write(log);
  return out.text();
}

const ESC = '\u001b[';

function failure(): Error {
  return new Error('disk on fire');
}

describe('production (the default): JSON, info, stack traces from error', () => {
  test('one JSON object per line; debug is left out', () => {
    const text = logged({}, (log) => {
      log.debug('hidden');
      log.info({ controller: 'widget', name: 'a' }, 'reconciled');
    });
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'reconciled', controller: 'widget', name: 'a' });
  });

  test('an error entry carries its stack trace; a warning keeps only the message, on one line', () => {
    const text = logged({}, (log) => {
      log.error({ err: failure() }, 'Reconciler error');
      log.warn({ err: failure() }, 'retrying');
    });
    const [error, warning] = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(error).toMatchObject({ level: 50, err: 'disk on fire' });
    expect(String(error!.stacktrace)).toMatch(/^Error: disk on fire\n\s+at failure \(.*logger\.test\.ts:\d+:\d+\)/);
    expect(warning).toEqual(expect.objectContaining({ level: 40, err: 'disk on fire' }));
    expect(warning).not.toHaveProperty('stacktrace');
  });

  test('an Error of another realm (Node\'s own errors seen from jest) is logged as an error, not as an object', () => {
    const foreign = runInNewContext(`new Error('connect ECONNREFUSED')`) as Error;
    const text = logged({}, (log) => {
      log.error({ err: foreign }, 'Reconciler error');
      log.error(foreign, 'as the first argument');
    });
    const [fields, first] = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(fields).toMatchObject({ level: 50, err: 'connect ECONNREFUSED' });
    expect(String(fields!.stacktrace)).toMatch(/^Error: connect ECONNREFUSED\n/);
    expect(first).toMatchObject({ level: 50, err: 'connect ECONNREFUSED', msg: 'as the first argument' });
  });

  test('a stacktrace field given by the caller is dropped below the stack-trace level', () => {
    const text = logged({ stacktraceLevel: 'panic' }, (log) => log.error({ err: 'x', stacktrace: 'Error: x\n    at somewhere' }, 'Reconciler error'));
    const entry = JSON.parse(text) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 50, err: 'x' });
    expect(entry).not.toHaveProperty('stacktrace');
    expect(text.trim().split('\n')).toHaveLength(1);
  });

  test('--zap-stacktrace-level=info: info entries carry the stack too', () => {
    const entry = JSON.parse(logged({ stacktraceLevel: 'info' }, (log) => log.info({ err: failure() }, 'noted'))) as Record<string, unknown>;
    expect(String(entry.stacktrace)).toContain('Error: disk on fire');
  });
});

describe('development (--zap-devel): console lines, debug, stack traces from warn', () => {
  test('human-readable lines: time, level, message and the fields as JSON, not a JSON object', () => {
    const text = logged({ development: true }, (log) => {
      log.debug({ controller: 'widget', name: 'a', namespace: 'ns' }, 'reconciling');
      log.info('starting manager');
    });
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}\] DEBUG: reconciling\t\{"controller":"widget","name":"a","namespace":"ns"\}$/);
    expect(lines[1]).toMatch(/\] INFO: starting manager$/);
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });

  test('a warning with an error shows the stack on the lines below it', () => {
    const text = logged({ development: true }, (log) => log.warn({ err: failure(), controller: 'widget' }, 'Reconciler error'));
    const lines = text.trim().split('\n');
    expect(lines[0]).toMatch(/WARN: Reconciler error\t\{"err":"disk on fire","controller":"widget"\}$/);
    expect(lines[1]).toBe('Error: disk on fire');
    expect(lines[2]).toMatch(/^\s+at failure \(.*logger\.test\.ts:\d+:\d+\)$/);
  });

  test('--zap-encoder=json keeps development levels with JSON lines', () => {
    const text = logged({ development: true, encoder: 'json' }, (log) => log.debug('visible'));
    expect(JSON.parse(text)).toMatchObject({ level: 20, msg: 'visible' });
  });

  test('--zap-encoder=console in production: console lines at info', () => {
    const text = logged({ encoder: 'console' }, (log) => {
      log.debug('hidden');
      log.info('shown');
    });
    expect(text.trim().split('\n')).toEqual([expect.stringMatching(/\] INFO: shown$/)]);
  });

  test('no colour into a pipe; colour on a terminal, or when FORCE_COLOR asks; NO_COLOR turns it off', () => {
    const plain = logged({ development: true }, (log) => log.info('hello'));
    expect(plain).not.toContain(ESC);
    const terminal = sink(true);
    newLogger({ development: true, destination: terminal.stream }).info('hello');
    expect(terminal.text()).toContain(`${ESC}32mINFO`);
    const saved = { force: process.env.FORCE_COLOR, no: process.env.NO_COLOR };
    try {
      process.env.FORCE_COLOR = '1';
      expect(logged({ development: true }, (log) => log.info('hello'))).toContain(ESC);
      delete process.env.FORCE_COLOR;
      process.env.NO_COLOR = '1';
      const noColor = sink(true);
      newLogger({ development: true, destination: noColor.stream }).info('hello');
      expect(noColor.text()).not.toContain(ESC);
    } finally {
      for (const [name, value] of [['FORCE_COLOR', saved.force], ['NO_COLOR', saved.no]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

test('levels: zap names and integer verbosity; anything else is refused', () => {
  expect(['debug', 'info', 'warn', 'error', 'panic', '0', '1', '2'].map(pinoLevel)).toEqual(['debug', 'info', 'warn', 'error', 'fatal', 'info', 'debug', 'trace']);
  expect(() => pinoLevel('verbose')).toThrow('unknown log level "verbose"');
  expect(logged({ level: 'error' }, (log) => log.warn('hidden'))).toBe('');
});

// A real terminal: `script` runs node on a pty; the built logger (dist/) colours its console lines there.
const dist = fileURLToPath(new URL('../../../dist/runtime/index.js', import.meta.url));
test('on a real terminal (a pty) the development logger colours its lines; piped, the same program does not', async () => {
  expect({ script: existsSync('/usr/bin/script'), builtRuntime: existsSync(dist) }).toEqual({ script: true, builtRuntime: true });
  const program = `import(${JSON.stringify(dist)}).then((m) => m.newLogger({ development: true }).info('on a terminal'))`;
  const env = { ...process.env, FORCE_COLOR: '', NO_COLOR: '' };
  const run = (file: string, args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile(file, args, { env, timeout: 30_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))));
  const onPty = await run('/usr/bin/script', ['-qec', `${process.execPath} -e ${JSON.stringify(program)}`, '/dev/null']);
  expect(onPty).toContain('on a terminal');
  expect(onPty).toContain(`${ESC}32mINFO`);
  const piped = await run(process.execPath, ['-e', program]);
  expect(piped).toContain('INFO: on a terminal');
  expect(piped).not.toContain(ESC);
}, 30_000);
