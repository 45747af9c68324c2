/**
 * kubeforge's own kubeconfig loader, so the runtime does not import @kubernetes/client-node: its KubeConfig
 * pulls the whole generated API (~830 modules), which every jest test file evaluated again in its own vm
 * context (0.4–0.5 CPU-s per file that imported kubeforge/runtime, measured with scripts/load-cpu). Loading
 * client-node lazily was not an option: the Manager's constructor and the Transport need the config
 * synchronously. A client-node KubeConfig a user passes is still accepted as is: the runtime asks only for
 * `KubeConfigLike`, which client-node's class meets structurally (no instanceof anywhere).
 *
 * What it reads, as client-go does: clusters/users/contexts and current-context (KUBECONFIG lists merged,
 * the first file to name an entry wins), `server`, `certificate-authority(-data)`, `client-certificate(-data)`,
 * `client-key(-data)` (paths relative to the kubeconfig's folder), `token` and `tokenFile`,
 * `insecure-skip-tls-verify`, `tls-server-name`, `as`/`as-groups`, basic auth, and exec credential plugins
 * (client.authentication.k8s.io/v1 and v1beta1: credential reused until its expirationTimestamp, run again
 * after). In-cluster configuration (client/in-cluster.ts) is a user with a token file re-read when it
 * changes, so projected-token rotation is picked up. Errors name the file, the line and the field.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

/** A kubeconfig cluster entry, in client-node's shape. */
export interface KubeconfigCluster {
  readonly name: string;
  readonly server: string;
  /** Base64 PEM, as in the file. */
  readonly caData?: string;
  readonly caFile?: string;
  readonly skipTLSVerify?: boolean;
  readonly tlsServerName?: string;
}

/** An exec credential plugin (client-go's ExecConfig). */
export interface ExecCredentialPlugin {
  readonly apiVersion?: string;
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
}

/** A kubeconfig user entry, in client-node's shape (`authProvider.config.tokenFile` is the in-cluster token). */
export interface KubeconfigUser {
  readonly name: string;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly certData?: string;
  readonly certFile?: string;
  readonly keyData?: string;
  readonly keyFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly impersonateUser?: string;
  readonly impersonateGroups?: readonly string[];
  readonly exec?: ExecCredentialPlugin;
  readonly authProvider?: { readonly name?: string; readonly config?: Readonly<Record<string, string>> };
}

export interface KubeconfigContext {
  readonly name: string;
  readonly cluster: string;
  readonly user?: string;
  readonly namespace?: string;
}

/**
 * What the runtime needs of a kubeconfig: kubeforge's `Kubeconfig` and client-node's `KubeConfig` both are
 * one (the Manager's `kubeConfig` option and property, the Transport's constructor).
 */
export interface KubeConfigLike {
  getCurrentContext(): string;
  getCurrentCluster(): KubeconfigCluster | null;
  getCurrentUser(): KubeconfigUser | null;
  /** TLS material and credentials of the current context, onto options for https.request. */
  applyToHTTPSOptions(opts: https.RequestOptions): Promise<void>;
}

interface ExecCredential {
  status?: { token?: string; clientCertificateData?: string; clientKeyData?: string; expirationTimestamp?: string };
}

const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

export class Kubeconfig implements KubeConfigLike {
  private readonly credentials = new Map<string, { credential: ExecCredential; expires: number }>();
  private readonly tokenFiles = new Map<string, { mtimeMs: number; size: number; token: string }>();

  constructor(
    readonly clusters: readonly KubeconfigCluster[],
    readonly users: readonly KubeconfigUser[],
    readonly contexts: readonly KubeconfigContext[],
    private currentContext: string,
    /** Where the configuration came from (file names, "in-cluster"), for error messages. */
    readonly source = 'kubeconfig',
  ) {}

  /** The kubeconfig file at `file`; a KUBECONFIG-style list (`a:b`) merges its files. */
  static fromFile(file: string): Kubeconfig {
    const files = file.split(path.delimiter).filter(Boolean);
    const parts = files.map((f) => {
      if (!existsSync(f)) throw new Error(`kubeconfig ${f}: the file does not exist`);
      return parseKubeconfig(readFileSync(f, 'utf8'), f);
    });
    return merge(parts, files.join(path.delimiter));
  }

  /** A kubeconfig given as YAML or JSON text; relative paths in it resolve against `dir` (default the working folder). */
  static fromString(text: string, dir = process.cwd()): Kubeconfig {
    return parseKubeconfig(text, path.join(dir, '(kubeconfig text)'));
  }

  /**
   * client-node's loadFromDefault: $KUBECONFIG (of `env`, default the process's), else ~/.kube/config, else
   * in-cluster (`inCluster` given), else http://localhost:8080.
   */
  static fromDefault(inCluster?: () => Kubeconfig | undefined, env: NodeJS.ProcessEnv = process.env): Kubeconfig {
    const kubeconfigList = env.KUBECONFIG;
    if (kubeconfigList) {
      // as client-go: files of the list that do not exist are skipped, but one of them must
      const listed = kubeconfigList.split(path.delimiter).filter(Boolean);
      const present = listed.filter((f) => existsSync(f));
      if (present.length === 0) throw new Error(`KUBECONFIG=${kubeconfigList}: none of its files exists`);
      return Kubeconfig.fromFile(present.join(path.delimiter));
    }
    const home = path.join(os.homedir(), '.kube', 'config');
    if (existsSync(home)) return Kubeconfig.fromFile(home);
    const pod = inCluster?.();
    if (pod) return pod;
    return new Kubeconfig([{ name: 'cluster', server: 'http://localhost:8080' }], [{ name: 'user' }], [{ name: 'loaded-context', cluster: 'cluster', user: 'user' }], 'loaded-context', 'default configuration');
  }

  getCurrentContext(): string {
    return this.currentContext;
  }

  setCurrentContext(name: string): void {
    if (!this.getContextObject(name)) throw new Error(`${this.source}: context "${name}" does not exist`);
    this.currentContext = name;
  }

  getContextObject(name: string): KubeconfigContext | null {
    return this.contexts.find((c) => c.name === name) ?? null;
  }

  getCurrentCluster(): KubeconfigCluster | null {
    const context = this.getContextObject(this.currentContext);
    return (context && this.clusters.find((c) => c.name === context.cluster)) ?? null;
  }

  getCurrentUser(): KubeconfigUser | null {
    const context = this.getContextObject(this.currentContext);
    return (context?.user !== undefined && this.users.find((u) => u.name === context.user)) || null;
  }

  async applyToHTTPSOptions(opts: https.RequestOptions): Promise<void> {
    const cluster = this.getCurrentCluster();
    const user = this.getCurrentUser();
    const headers = (opts.headers ??= {}) as Record<string, string | string[]>;
    if (cluster?.skipTLSVerify) opts.rejectUnauthorized = false;
    if (cluster?.tlsServerName) opts.servername = cluster.tlsServerName;
    const ca = material(cluster?.caFile, cluster?.caData);
    if (ca) opts.ca = ca;
    if (!user) return;
    const cert = material(user.certFile, user.certData);
    if (cert) opts.cert = cert;
    const key = material(user.keyFile, user.keyData);
    if (key) opts.key = key;
    if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
    if (user.impersonateGroups?.length) headers['Impersonate-Group'] = [...user.impersonateGroups];
    if (user.username !== undefined && user.password !== undefined) headers.Authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
    const tokenFile = user.tokenFile ?? (user.authProvider?.name === 'tokenFile' ? user.authProvider.config?.tokenFile : undefined);
    if (user.token) headers.Authorization = `Bearer ${user.token}`;
    else if (tokenFile) headers.Authorization = `Bearer ${this.readTokenFile(tokenFile)}`;
    if (user.exec) {
      const status = (await this.execCredential(user.name, user.exec)).status ?? {};
      if (status.clientCertificateData) opts.cert = status.clientCertificateData;
      if (status.clientKeyData) opts.key = status.clientKeyData;
      if (status.token) headers.Authorization = `Bearer ${status.token}`;
    }
  }

  /** The token in `file`, read again whenever the file changes (a rotated projected token). */
  private readTokenFile(file: string): string {
    const { mtimeMs, size } = statSync(file);
    const cached = this.tokenFiles.get(file);
    if (cached && cached.mtimeMs === mtimeMs && cached.size === size) return cached.token;
    const token = readFileSync(file, 'utf8').trim();
    this.tokenFiles.set(file, { mtimeMs, size, token });
    return token;
  }

  /** The plugin's credential, reused until its expirationTimestamp (for ever without one, as client-go). */
  private async execCredential(userName: string, exec: ExecCredentialPlugin): Promise<ExecCredential> {
    const cached = this.credentials.get(userName);
    if (cached && cached.expires > Date.now()) return cached.credential;
    const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
    const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify({ apiVersion, kind: 'ExecCredential', spec: { interactive: false } }) };
    for (const { name, value } of exec.env ?? []) env[name] = value;
    const what = `${this.source}: user "${userName}": exec plugin ${exec.command}`;
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(exec.command, [...(exec.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      child.on('error', (e) => reject(new Error(`${what}: ${e.message}`)));
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${what} exited with ${code}: ${err.trim()}`))));
    });
    let credential: ExecCredential & { apiVersion?: string; kind?: string };
    try {
      credential = JSON.parse(stdout) as typeof credential;
    } catch {
      throw new Error(`${what}: its output is not an ExecCredential in JSON: ${stdout.slice(0, 200)}`);
    }
    if (credential.kind !== 'ExecCredential' || credential.apiVersion !== apiVersion) {
      throw new Error(`${what}: printed apiVersion "${credential.apiVersion}" kind "${credential.kind}", expected apiVersion "${apiVersion}" kind "ExecCredential"`);
    }
    const expiry = credential.status?.expirationTimestamp;
    this.credentials.set(userName, { credential, expires: expiry ? Date.parse(expiry) : Infinity });
    return credential;
  }
}

/** PEM bytes from a file or base64 data (data wins, as client-go). */
function material(file: string | undefined, data: string | undefined): Buffer | undefined {
  if (data) return Buffer.from(data, 'base64');
  if (file) return readFileSync(file);
  return undefined;
}

function merge(parts: Kubeconfig[], source: string): Kubeconfig {
  if (parts.length === 1) return parts[0];
  const firstByName = <T extends { name: string }>(lists: (readonly T[])[]): T[] => {
    const seen = new Map<string, T>();
    for (const list of lists) for (const entry of list) if (!seen.has(entry.name)) seen.set(entry.name, entry);
    return [...seen.values()];
  };
  const current = parts.map((p) => p.getCurrentContext()).find(Boolean) ?? '';
  return new Kubeconfig(firstByName(parts.map((p) => p.clusters)), firstByName(parts.map((p) => p.users)), firstByName(parts.map((p) => p.contexts)), current, source);
}

/** Parses one kubeconfig document; `file` names it in errors and anchors its relative paths. */
function parseKubeconfig(text: string, file: string): Kubeconfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new Error(`kubeconfig ${file}:${e.linePos?.[0]?.line ?? 1}: not valid YAML: ${e.message.split('\n')[0]}`);
  }
  const fail = (field: (string | number)[], message: string): never => {
    // the line of the field's key when it has one (`cluster:`), else of its value (a list entry)
    const parent = field.length > 0 ? doc.getIn(field.slice(0, -1), true) : undefined;
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === field[field.length - 1]) : undefined;
    const node = (pair && isScalar(pair.key) ? pair.key : doc.getIn(field, true)) as { range?: [number, number, number] } | undefined;
    const line = node?.range ? lineCounter.linePos(node.range[0]).line : undefined;
    throw new Error(`kubeconfig ${file}${line ? `:${line}` : ''}: ${fieldName(field)}: ${message}`);
  };
  const root: unknown = doc.toJS() ?? {};
  if (!isRecord(root)) fail([], 'expected a mapping (apiVersion: v1, kind: Config)');
  const dir = path.dirname(file);
  const resolveFile = (field: (string | number)[], value: unknown): string | undefined => {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') fail(field, `expected a file name, got ${JSON.stringify(value)}`);
    return path.resolve(dir, value as string);
  };
  const str = (field: (string | number)[], value: unknown): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') fail(field, `expected a string, got ${JSON.stringify(value)}`);
    return value as string;
  };
  const list = (key: string): Record<string, unknown>[] => {
    const value = (root as Record<string, unknown>)[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !isSeq(doc.get(key, true))) fail([key], 'expected a list');
    (value as unknown[]).forEach((entry, i) => {
      if (!isRecord(entry) || typeof entry.name !== 'string' || !entry.name) fail([key, i], 'expected an entry with a name');
    });
    return value as Record<string, unknown>[];
  };
  const section = (key: string, i: number, inner: string): Record<string, unknown> => {
    const value = list(key)[i][inner];
    if (value === undefined || value === null) return {};
    if (!isRecord(value) || !isMap(doc.getIn([key, i, inner], true))) fail([key, i, inner], 'expected a mapping');
    return value as Record<string, unknown>;
  };

  const clusters = list('clusters').map((entry, i): KubeconfigCluster => {
    const c = section('clusters', i, 'cluster');
    const at = (k: string): (string | number)[] => ['clusters', i, 'cluster', k];
    const server = str(at('server'), c.server);
    if (!server) fail(['clusters', i, 'cluster'], `cluster "${String(entry.name)}" has no server`);
    try {
      new URL(server as string);
    } catch {
      fail(at('server'), `not a URL: ${JSON.stringify(server)}`);
    }
    const skip = c['insecure-skip-tls-verify'];
    if (skip !== undefined && typeof skip !== 'boolean') fail(at('insecure-skip-tls-verify'), `expected true or false, got ${JSON.stringify(skip)}`);
    const caFile = resolveFile(at('certificate-authority'), c['certificate-authority']);
    if (caFile && !existsSync(caFile)) fail(at('certificate-authority'), `${caFile} does not exist`);
    return omitUndefined({
      name: entry.name as string,
      server: (server as string).replace(/\/$/, ''),
      caData: str(at('certificate-authority-data'), c['certificate-authority-data']),
      caFile,
      skipTLSVerify: skip === true,
      tlsServerName: str(at('tls-server-name'), c['tls-server-name']),
    });
  });

  const users = list('users').map((entry, i): KubeconfigUser => {
    const u = section('users', i, 'user');
    const at = (k: string): (string | number)[] => ['users', i, 'user', k];
    if (u['auth-provider'] !== undefined) fail(at('auth-provider'), 'auth-provider plugins are not supported (client-go removed them in 1.26): use an exec credential plugin');
    const files: Record<string, string | undefined> = {};
    for (const k of ['client-certificate', 'client-key', 'tokenFile']) {
      files[k] = resolveFile(at(k), u[k]);
      if (files[k] && !existsSync(files[k])) fail(at(k), `${files[k]} does not exist`);
    }
    let exec: ExecCredentialPlugin | undefined;
    if (u.exec !== undefined && u.exec !== null) {
      const e = u.exec;
      if (!isRecord(e)) fail(at('exec'), 'expected a mapping');
      const plugin = e as Record<string, unknown>;
      const command = str([...at('exec'), 'command'], plugin.command);
      if (!command) fail(at('exec'), 'has no command');
      const apiVersion = str([...at('exec'), 'apiVersion'], plugin.apiVersion);
      if (!apiVersion || !EXEC_API_VERSIONS.includes(apiVersion)) fail([...at('exec'), 'apiVersion'], `expected one of ${EXEC_API_VERSIONS.join(', ')}, got ${JSON.stringify(apiVersion ?? null)}`);
      const args = plugin.args ?? [];
      if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) fail([...at('exec'), 'args'], 'expected a list of strings');
      const env = plugin.env ?? [];
      if (!Array.isArray(env) || env.some((v) => !isRecord(v) || typeof v.name !== 'string' || typeof v.value !== 'string')) fail([...at('exec'), 'env'], 'expected a list of {name, value}');
      // a relative command with a slash is relative to the kubeconfig's folder, as client-go resolves it
      const resolved = (command as string).includes('/') && !path.isAbsolute(command as string) ? path.resolve(dir, command as string) : (command as string);
      exec = { apiVersion, command: resolved, args: args as string[], env: env as { name: string; value: string }[] };
    }
    const groups = u['as-groups'];
    if (groups !== undefined && (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string'))) fail(at('as-groups'), 'expected a list of strings');
    return omitUndefined({
      name: entry.name as string,
      token: str(at('token'), u.token),
      tokenFile: files.tokenFile,
      certData: str(at('client-certificate-data'), u['client-certificate-data']),
      certFile: files['client-certificate'],
      keyData: str(at('client-key-data'), u['client-key-data']),
      keyFile: files['client-key'],
      username: str(at('username'), u.username),
      password: str(at('password'), u.password),
      impersonateUser: str(at('as'), u.as),
      impersonateGroups: groups as string[] | undefined,
      exec,
    });
  });

  const contexts = list('contexts').map((entry, i): KubeconfigContext => {
    const c = section('contexts', i, 'context');
    const at = (k: string): (string | number)[] => ['contexts', i, 'context', k];
    const cluster = str(at('cluster'), c.cluster);
    if (!cluster) fail(['contexts', i, 'context'], `context "${String(entry.name)}" names no cluster`);
    return omitUndefined({ name: entry.name as string, cluster: cluster as string, user: str(at('user'), c.user) || undefined, namespace: str(at('namespace'), c.namespace) || undefined });
  });

  const current = str(['current-context'], (root as Record<string, unknown>)['current-context']) ?? '';
  // the current context must lead somewhere: its cluster and user are checked here, not at the first request
  if (current) {
    const index = contexts.findIndex((c) => c.name === current);
    if (index < 0) fail(['current-context'], `context "${current}" does not exist`);
    const context = contexts[index];
    if (!clusters.some((c) => c.name === context.cluster)) fail(['contexts', index, 'context', 'cluster'], `cluster "${context.cluster}" does not exist`);
    if (context.user !== undefined && !users.some((u) => u.name === context.user)) fail(['contexts', index, 'context', 'user'], `user "${context.user}" does not exist`);
  }
  return new Kubeconfig(clusters, users, contexts, current, `kubeconfig ${file}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `clusters[0].cluster.server` for a path into the document. */
function fieldName(field: (string | number)[]): string {
  return field.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(document)';
}

function omitUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
