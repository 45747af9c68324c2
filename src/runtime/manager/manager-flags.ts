/**
 * The manager's command-line flags as kubebuilder's cmd/main.go declares them: bind addresses, the webhook
 * port, secure metrics, leader election, kubeconfig, controller-runtime's zap log options, the certificate
 * folders and files, and HTTP/2. A made project's cmd/main.ts and cmd/run-local.ts call
 * `parseManagerFlags`; a bad value throws an error naming its flag, and `startFailureMessage` turns a server
 * that cannot listen into one line naming the flag and the port. A project adds its own flags with
 * `addManagerFlags` and reads their values from what `parseManagerFlags` returns, or from the handle
 * `addManagerFlags` returns (as a Go package reads the variable `flag.Duration` gave it after `flag.Parse`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BindError, type ServerName } from './bind-address.js';
import { newLogger, pinoLevel, type LogEncoder, type StacktraceLevel } from '../logging/logger.js';
import type { ManagerOptions } from './manager.js';
import { isError } from '../as-error.js';

const FLAGS_USAGE = `
  --metrics-bind-address <addr>       address the metric endpoint binds to, e.g. :8443 (HTTPS) or :8080 (HTTP);
                                      "0" disables it (default "0")
  --metrics-secure[=false]            serve metrics over HTTPS, only to callers the API server authenticates and
                                      authorizes for get /metrics (the metrics-reader ClusterRole) (default true)
  --metrics-cert-path <dir>           folder with the metrics server's certificate and key
                                      (default: a self-signed certificate made at start)
  --metrics-cert-name <file>          the certificate's file name in --metrics-cert-path (default "tls.crt")
  --metrics-cert-key <file>           the key's file name in --metrics-cert-path (default "tls.key")
  --enable-http2[=false]              serve HTTP/2 as well as HTTP/1.1 on the metrics and webhook servers; off by
                                      default (HTTP/1.1 only: the HTTP/2 Stream Cancellation and Rapid Reset CVEs)
  --health-probe-bind-address <addr>  address the /healthz and /readyz probes bind to (default ":8081")
  --leader-elect                      enable leader election, so only one manager is active at a time
  --kubeconfig <path>                 kubeconfig to use (default: $KUBECONFIG, ~/.kube/config, or in-cluster)
  --zap-devel[=false]                 development logging: console encoder (human-readable, coloured on a
                                      terminal or with FORCE_COLOR), debug level, stack traces from warn; production
                                      (the default): JSON, info, stack traces from error
  --zap-encoder <json|console>        log encoding (default json; console with --zap-devel)
  --zap-log-level <level>             debug, info, warn, error, panic, or an integer verbosity (1 is debug)
                                      (default info; debug with --zap-devel)
  --zap-stacktrace-level <level>      level from which log entries carry their error's stack trace: info, warn,
                                      error or panic (default error; warn with --zap-devel)
  --webhook-port <port>               port the webhook server listens on (default 9443)
  --webhook-cert-path <dir>           folder with the webhook server's certificate, key and ca.crt
                                      (default: a self-signed certificate made at start, for local runs)
  --webhook-cert-name <file>          the certificate's file name in --webhook-cert-path (default "tls.crt")
  --webhook-cert-key <file>           the key's file name in --webhook-cert-path (default "tls.key")
  --help                              print this text`;

/** A project flag's node parseArgs option. */
export type ProjectFlagOption = { type: 'string'; default?: string } | { type: 'boolean'; default?: boolean };

/** The values of flags as parsed: a string flag's text, a boolean flag's state; undefined when absent without a default. */
export type ProjectFlagValues<O extends Record<string, ProjectFlagOption> = Record<string, ProjectFlagOption>> = {
  [name in keyof O]: FlagValue<O[name]> | undefined;
};

/** A flag's value type (distributes over a union of options). */
type FlagValue<F extends ProjectFlagOption> = F extends { type: 'boolean' } ? boolean : string;

/** Flags a project adds beside the manager's: node parseArgs options, their --help lines, and a check of their values. */
export interface ProjectFlags<O extends Record<string, ProjectFlagOption> = Record<string, ProjectFlagOption>> {
  options: O;
  /** The flags' --help lines, each starting with two spaces as the manager's. */
  usage: string;
  /** Throws an error naming the flag for a bad value (a string flag given without one is checked as ""). */
  check?(values: ProjectFlagValues<O>): void;
}

/** What `addManagerFlags` returns: its flags' values as the last `parseManagerFlags` read them (their defaults before). */
export interface ParsedProjectFlags<O extends Record<string, ProjectFlagOption> = Record<string, ProjectFlagOption>> {
  readonly values: ProjectFlagValues<O>;
  /** The names of the flags the last command line gave, the manager's and every project flag (Go's `flag.Visit`). */
  readonly given: ReadonlySet<string>;
}

interface RegisteredFlags {
  flags: ProjectFlags;
  parsed: { values: ProjectFlagValues; given: ReadonlySet<string> };
}

const projectFlags: RegisteredFlags[] = [];

/** Each option's default (undefined when it has none), by name. */
function defaultsOf(options: Record<string, ProjectFlagOption>): ProjectFlagValues {
  return Object.fromEntries(Object.entries(options).map(([name, option]) => [name, option.default]));
}

/**
 * Adds a project's own flags to every later `parseManagerFlags` and `managerUsage` (the flags of cmd/main.ts
 * and cmd/run-local.ts), as Go packages register flags on `flag.CommandLine` (controller-runtime's own
 * --kubeconfig is registered that way). A name the manager or an earlier call already declares is an error.
 * Returns a handle on the flags' values: their defaults until `parseManagerFlags` runs, then what it read —
 * so code that cmd/main.ts and cmd/run-local.ts reach only through `setupControllers(mgr)` reads them too.
 */
export function addManagerFlags<O extends Record<string, ProjectFlagOption>>(flags: ProjectFlags<O>): ParsedProjectFlags<O> {
  const taken = new Set([...Object.keys(MANAGER_FLAG_OPTIONS), ...projectFlags.flatMap((f) => Object.keys(f.flags.options))]);
  for (const name of Object.keys(flags.options)) if (taken.has(name)) throw new Error(`addManagerFlags: --${name} is already declared`);
  const registered: RegisteredFlags = { flags: flags as unknown as ProjectFlags, parsed: { values: defaultsOf(flags.options), given: new Set() } };
  projectFlags.push(registered);
  return {
    get values() {
      return registered.parsed.values as ProjectFlagValues<O>;
    },
    get given() {
      return registered.parsed.given;
    },
  };
}

/** The --help text of a command taking the manager's flags (`node dist/cmd/main.js` by default). */
export function managerUsage(command = 'node dist/cmd/main.js'): string {
  return `Usage: ${command} [flags]${FLAGS_USAGE}${projectFlags.map((f) => `\n${f.flags.usage}`).join('')}`;
}

/** The port of a Go-style bind address (":8081", "0.0.0.0:8081"); undefined for "0" (disabled). */
export function portOf(flag: string, address: string): number | undefined {
  if (address === '0') return undefined;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${flag}: expected an address such as :8081, got "${address}"`);
  return port;
}

/** Go-style `--flag=true|false` for boolean flags (node's parseArgs takes only `--flag`): explicit values and the rest. */
function booleanValues(argv: string[], names: string[]): { rest: string[]; explicit: Record<string, boolean> } {
  const explicit: Record<string, boolean> = {};
  const rest = argv.filter((arg) => {
    const match = /^--([a-z0-9-]+)=(true|false)$/.exec(arg);
    if (!match || !names.includes(match[1]!)) return true;
    explicit[match[1]!] = match[2] === 'true';
    return false;
  });
  return { rest, explicit };
}

/**
 * The namespace this pod runs in (for the leader-election Lease); "default" outside a cluster. The
 * ServiceAccount folder is KUBEFORGE_SERVICEACCOUNT_DIR when set (pods of the local cluster run as processes).
 */
function podNamespace(): string {
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  try {
    return readFileSync(join(process.env.KUBEFORGE_SERVICEACCOUNT_DIR || '/var/run/secrets/kubernetes.io/serviceaccount', 'namespace'), 'utf8').trim();
  } catch {
    return 'default';
  }
}

/** What the command line asks for: the manager's options, the settings outside it, and the project's own flags. */
export interface ManagerFlags {
  options: ManagerOptions;
  webhookCertPath?: string;
  /** The values of the flags the project added with `addManagerFlags`, by name (defaults filled in). */
  values: ProjectFlagValues;
  /** The names of the flags the command line gave, the manager's and the project's (Go's `flag.Visit`). */
  given: ReadonlySet<string>;
}

/** What `parseManagerFlags` needs from the project: the leader-election Lease's name (kubebuilder's `<project>-leader.<domain>`). */
export interface ManagerFlagsConfig {
  leaderElectionId: string;
}

/**
 * Parses the manager's flags and the project's (`addManagerFlags`); 'help' for --help. Throws an error naming
 * the flag for a bad value.
 */
export function parseManagerFlags(argv: string[], config: ManagerFlagsConfig): ManagerFlags | 'help' {
  const { rest, explicit } = booleanValues(argv, [
    'metrics-secure',
    'leader-elect',
    'zap-devel',
    'enable-http2',
    ...projectFlags.flatMap(({ flags }) => Object.entries(flags.options).flatMap(([name, o]) => (o.type === 'boolean' ? [name] : []))),
  ]);
  const options: Record<string, ProjectFlagOption> = { ...MANAGER_FLAG_OPTIONS };
  for (const { flags } of projectFlags) Object.assign(options, flags.options);
  const { values, tokens } = parseFlagArgs(rest, options);
  Object.assign(values, explicit);
  if (values.help) return 'help';
  const given: ReadonlySet<string> = new Set([...tokens.flatMap((t) => (t.kind === 'option' && t.name !== undefined ? [t.name] : [])), ...Object.keys(explicit)]);
  const owned = projectFlags.map((registered) => Object.fromEntries(Object.keys(registered.flags.options).map((name) => [name, values[name]])) as ProjectFlagValues);
  projectFlags.forEach((registered, i) => registered.flags.check?.(owned[i]!));
  const flags = managerFlagsOf(values as unknown as ManagerFlagValues, config);
  // Recorded only for a command line that passed every check: the handles never hold refused values.
  projectFlags.forEach((registered, i) => (registered.parsed = { values: owned[i]!, given }));
  return { ...flags, values: Object.assign({}, ...owned) as ProjectFlagValues, given };
}

/**
 * node's parseArgs over every flag. A string flag given without a value is refused naming the flag: a project
 * flag by its own check (with ""), so its message is the same as for any bad value.
 */
function parseFlagArgs(args: string[], options: Record<string, ProjectFlagOption>): { values: Record<string, string | boolean | undefined>; tokens: Array<{ kind: string; name?: string }> } {
  try {
    const parsed = parseArgs({ args, options, strict: true, tokens: true });
    return { values: parsed.values as Record<string, string | boolean | undefined>, tokens: parsed.tokens as Array<{ kind: string; name?: string }> };
  } catch (err) {
    const name = (err as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? /'--([a-z0-9-]+)/.exec((err as Error).message)?.[1] : undefined;
    if (name === undefined) throw err;
    const owner = projectFlags.find(({ flags }) => name in flags.options)?.flags;
    owner?.check?.({ ...defaultsOf(owner.options), [name]: '' });
    throw new Error(`--${name}: expected a value (--${name}=<value> or --${name} <value>)`, { cause: err });
  }
}

/** The manager's flags for node's parseArgs. */
const MANAGER_FLAG_OPTIONS = {
      'metrics-bind-address': { type: 'string', default: '0' },
      'metrics-secure': { type: 'boolean', default: true },
      'metrics-cert-path': { type: 'string' },
      'metrics-cert-name': { type: 'string' },
      'metrics-cert-key': { type: 'string' },
      'enable-http2': { type: 'boolean', default: false },
      'health-probe-bind-address': { type: 'string', default: ':8081' },
      'leader-elect': { type: 'boolean', default: false },
      kubeconfig: { type: 'string' },
      'zap-devel': { type: 'boolean', default: false },
      'zap-encoder': { type: 'string' },
      'zap-log-level': { type: 'string' },
      'zap-stacktrace-level': { type: 'string' },
      'webhook-port': { type: 'string', default: '9443' },
      'webhook-cert-path': { type: 'string' },
      'webhook-cert-name': { type: 'string' },
      'webhook-cert-key': { type: 'string' },
      help: { type: 'boolean', default: false },
} as const;

type ManagerFlagValues = ReturnType<typeof parseArgs<{ options: typeof MANAGER_FLAG_OPTIONS }>>['values'];

/** The manager's options from the parsed values; a bad value throws an error naming its flag. */
function managerFlagsOf(values: ManagerFlagValues, config: ManagerFlagsConfig): Omit<ManagerFlags, 'values' | 'given'> {
  const logger = newLogger(logOptions(values['zap-devel'], values['zap-encoder'], values['zap-log-level'], values['zap-stacktrace-level']));
  portOf('--health-probe-bind-address', values['health-probe-bind-address']);
  const webhookPort = Number(values['webhook-port']);
  if (!/^\d+$/.test(values['webhook-port']) || webhookPort > 65535) throw new Error(`--webhook-port: expected a port number (0–65535), got "${values['webhook-port']}"`);
  portOf('--metrics-bind-address', values['metrics-bind-address']);
  const metricsCertPath = values['metrics-cert-path'];
  const webhookCertPath = values['webhook-cert-path'];
  const metricsFiles = certificateFiles('metrics', metricsCertPath, values['metrics-cert-name'], values['metrics-cert-key']);
  const webhookFiles = certificateFiles('webhook', webhookCertPath, values['webhook-cert-name'], values['webhook-cert-key']);
  // kubebuilder's main.go: HTTP/2 stays off unless asked for (HTTP/1.1 only in ALPN), on both servers.
  const enableHttp2 = values['enable-http2'];
  const options: ManagerOptions = {
    logger,
    // As kubebuilder's main.go: HTTPS with authentication and authorization (TokenReview and
    // SubjectAccessReview, config/rbac/metrics_auth_role.yaml) unless --metrics-secure=false.
    metrics: {
      bindAddress: values['metrics-bind-address'],
      secureServing: values['metrics-secure'],
      enableHttp2,
      ...(metricsCertPath ? { certificates: readCertificates('--metrics-cert-path', metricsCertPath, metricsFiles) } : {}),
    },
    // Served only when webhooks are registered; kubebuilder's port 9443 (config/default/manager_webhook_patch.yaml)
    // on every interface: the API server reaches it through the webhook Service at the pod's IP.
    webhook: { host: '', port: webhookPort, enableHttp2, ...(webhookCertPath ? { certificates: readCertificates('--webhook-cert-path', webhookCertPath, webhookFiles) } : {}) },
    ...(values.kubeconfig ? { kubeConfig: values.kubeconfig } : {}),
    // ":8081" listens on every interface: the kubelet probes the pod's IP (config/manager/manager.yaml).
    probeBindAddress: values['health-probe-bind-address'],
    ...(values['leader-elect'] ? { leaderElection: { id: config.leaderElectionId, namespace: podNamespace() } } : {}),
  };
  return { options, ...(webhookCertPath ? { webhookCertPath } : {}) };
}

/** controller-runtime's zap flags as logger options; a bad value names its flag. */
function logOptions(development: boolean, encoder: string | undefined, level: string | undefined, stacktraceLevel: string | undefined): Parameters<typeof newLogger>[0] {
  if (encoder !== undefined && encoder !== 'json' && encoder !== 'console') throw new Error(`--zap-encoder: expected json or console, got "${encoder}"`);
  if (level !== undefined) {
    try {
      pinoLevel(level);
    } catch (err) {
      throw new Error(`--zap-log-level: ${(err as Error).message}`, { cause: err });
    }
  }
  if (stacktraceLevel !== undefined && !['debug', 'info', 'warn', 'error', 'panic'].includes(stacktraceLevel)) {
    throw new Error(`--zap-stacktrace-level: expected info, warn, error or panic, got "${stacktraceLevel}"`);
  }
  return {
    development,
    ...(encoder ? { encoder: encoder as LogEncoder } : {}),
    ...(level ? { level } : {}),
    ...(stacktraceLevel ? { stacktraceLevel: stacktraceLevel as StacktraceLevel } : {}),
  };
}

/** The flag that sets each server's address. */
const BIND_FLAGS: Record<ServerName, string> = { 'health probe': '--health-probe-bind-address', metrics: '--metrics-bind-address', webhook: '--webhook-port' };

/**
 * What to print when the manager cannot start: for a server that cannot listen, one line naming the flag and
 * the port ("--health-probe-bind-address :8081: port 8081 is already in use"); otherwise the error itself
 * (its stack when `withStack`).
 */
export function startFailureMessage(err: unknown, withStack = false): string {
  if (err instanceof BindError) return `${BIND_FLAGS[err.server]} ${err.address}: ${err.reason}`;
  if (!isError(err)) return String(err);
  return withStack ? (err.stack ?? err.message) : err.message;
}

/** The certificate and key file names (--<server>-cert-name, --<server>-cert-key), which need --<server>-cert-path. */
function certificateFiles(server: string, dir: string | undefined, certName: string | undefined, keyName: string | undefined): { cert: string; key: string } {
  for (const [flag, value] of [['cert-name', certName], ['cert-key', keyName]] as const) {
    if (value !== undefined && dir === undefined) throw new Error(`--${server}-${flag}: needs --${server}-cert-path (the folder holding "${value}")`);
  }
  return { cert: certName ?? 'tls.crt', key: keyName ?? 'tls.key' };
}

/** The certificate, key and ca.crt of a mounted cert-manager secret (ca.crt falls back to the certificate). */
function readCertificates(flag: string, dir: string, files: { cert: string; key: string }): { caPem: string; certPem: string; keyPem: string } {
  const read = (name: string): string => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch (err) {
      throw new Error(`${flag}: cannot read ${join(dir, name)}: ${(err as Error).message}`, { cause: err });
    }
  };
  const certPem = read(files.cert);
  return { certPem, keyPem: read(files.key), caPem: existsSync(join(dir, 'ca.crt')) ? read('ca.crt') : certPem };
}

