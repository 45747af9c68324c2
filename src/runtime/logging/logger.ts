/**
 * The manager's logger, built as controller-runtime's zap options build theirs (`--zap-devel`,
 * `--zap-encoder`, `--zap-log-level`, `--zap-stacktrace-level`): production is JSON lines at info with
 * stack traces from error up; development is human-readable console lines (pino-pretty, coloured when the
 * output is a terminal or FORCE_COLOR asks) at debug with stack traces from warn up. An entry below the
 * stack-trace level keeps only the error's message, so a routine failure stays one line.
 */
import { createRequire } from 'node:module';
import pino, { type Level, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { isError } from '../as-error.js';

/** pino-pretty is loaded only for the console encoder: a production manager starts without it. */
const loadPretty = (): typeof PinoPretty => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

export type LogEncoder = 'json' | 'console';
/** zap's level names ("panic" is pino's fatal); trace is pino's extra verbosity. */
export type StacktraceLevel = 'debug' | 'info' | 'warn' | 'error' | 'panic';

export interface LoggerOptions {
  /** zap's Development mode: console encoder, debug level, stack traces from warn (default false). */
  development?: boolean;
  /** Default: console in development, json otherwise. */
  encoder?: LogEncoder;
  /**
   * debug, info, warn, error, panic (fatal), trace, or zap's integer verbosity: 0 info, 1 debug, 2 and up trace.
   * Default: debug in development, info otherwise.
   */
  level?: string;
  /** Entries at or above this level carry the stack trace of their error. Default: warn in development, error otherwise. */
  stacktraceLevel?: StacktraceLevel;
  /** Where lines go (default process.stdout). */
  destination?: NodeJS.WritableStream & { isTTY?: boolean; fd?: number };
  /** Colour the console encoder's output; default: FORCE_COLOR, else NO_COLOR, else whether the destination is a TTY. */
  colorize?: boolean;
}

const LEVEL_VALUES: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** The pino level for a zap level name or integer verbosity; throws on anything else. */
export function pinoLevel(level: string): Level {
  if (level === 'panic') return 'fatal';
  if (level in LEVEL_VALUES) return level as Level;
  if (/^\d+$/.test(level)) return level === '0' ? 'info' : level === '1' ? 'debug' : 'trace';
  throw new Error(`unknown log level "${level}" (expected debug, info, warn, error, panic or an integer verbosity)`);
}

/** A logger as controller-runtime's zap.New(zap.UseFlagOptions(...)) makes one. */
export function newLogger(options: LoggerOptions = {}): Logger {
  const development = options.development ?? false;
  const encoder = options.encoder ?? (development ? 'console' : 'json');
  const level = pinoLevel(options.level ?? (development ? 'debug' : 'info'));
  const stackFrom = LEVEL_VALUES[pinoLevel(options.stacktraceLevel ?? (development ? 'warn' : 'error'))]!;
  const destination = options.destination ?? process.stdout;
  const pinoOptions: pino.LoggerOptions = {
    level,
    hooks: {
      logMethod(args, method, levelValue) {
        const [first, ...rest] = args as unknown[];
        if (first && typeof first === 'object' && !isError(first)) {
          return method.apply(this, [withStackPolicy(first as Record<string, unknown>, levelValue >= stackFrom), ...rest] as Parameters<typeof method>);
        }
        if (isError(first)) return method.apply(this, [withStackPolicy({ err: first }, levelValue >= stackFrom), ...rest] as Parameters<typeof method>);
        return method.apply(this, args);
      },
    },
  };
  if (encoder === 'json') return destination === process.stdout ? pino(pinoOptions) : pino(pinoOptions, destination);
  return pino(pinoOptions, consoleStream(destination, options.colorize ?? colorWanted(destination)));
}

/**
 * An entry's error fields under the stack-trace policy: an Error in `err` becomes its message, with its
 * stack in `stacktrace` when the entry's level asks for one; a `stacktrace` already there is dropped when it does not.
 */
function withStackPolicy(fields: Record<string, unknown>, keepStack: boolean): Record<string, unknown> {
  const err = fields.err;
  if (!isError(err) && !('stacktrace' in fields)) return fields;
  const out: Record<string, unknown> = { ...fields };
  if (isError(err)) {
    out.err = err.message;
    if (keepStack && err.stack) out.stacktrace = err.stack;
  }
  if (!keepStack) delete out.stacktrace;
  return out;
}

/** Colour unless told otherwise: FORCE_COLOR (not "0") forces it, NO_COLOR turns it off, else only on a terminal. */
function colorWanted(destination: { isTTY?: boolean }): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  return destination.isTTY === true;
}

/**
 * zap's console encoder in pino-pretty: time, level, message and the entry's fields as JSON on one line;
 * a stack trace, when the entry carries one, on the lines below it.
 */
function consoleStream(destination: NodeJS.WritableStream, colorize: boolean): NodeJS.WritableStream {
  return loadPretty()({
    colorize,
    sync: true,
    ...(destination === process.stdout ? {} : { destination }),
    translateTime: "SYS:yyyy-mm-dd'T'HH:MM:ss.lo",
    ignore: 'pid,hostname,name',
    hideObject: true,
    messageFormat: (log, messageKey, _levelLabel, extras) => {
      const { [messageKey]: message, stacktrace, level: _level, time: _time, pid: _pid, hostname: _hostname, ...fields } = log;
      const text = extras.colors.cyan(String(message ?? ''));
      const json = Object.keys(fields).length > 0 ? `\t${JSON.stringify(fields)}` : '';
      return typeof stacktrace === 'string' ? `${text}${json}\n${stacktrace}` : `${text}${json}`;
    },
  });
}
