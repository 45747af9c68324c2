/**
 * kubeforge's own kubeconfig loader without a server: files written by the real `kubectl config` (CA, client
 * certificate and key files, tokens, exec plugins, contexts), base64 `-data` fields, token files re-read when
 * rotated, KUBECONFIG lists, exec plugins (v1 and v1beta1) as tiny node scripts, in-cluster folders, errors
 * naming the file, line and field — and the Manager taking any object shaped like a kubeconfig.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ManualClock } from '../../testing/manual-clock.js';
import { Manager } from '../manager/manager.js';
import { inClusterKubeConfig } from './in-cluster.js';
import { Kubeconfig, type KubeConfigLike } from './kubeconfig.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kubeforge-kubeconfig-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `kubectl config …` on `file` with a private HOME (it never touches the user's kubeconfig). */
function kubectlConfig(file: string, ...args: string[]): void {
  execFileSync('kubectl', ['config', ...args, `--kubeconfig=${file}`], { env: { ...process.env, HOME: tmp }, stdio: 'pipe' });
}

async function optionsOf(kc: KubeConfigLike): Promise<https.RequestOptions & { headers: Record<string, string | string[]> }> {
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  return opts as https.RequestOptions & { headers: Record<string, string | string[]> };
}

const text = (value: unknown): string => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

describe('files written by kubectl config', () => {
  let file: string;
  beforeAll(() => {
    const dir = path.join(tmp, 'kubectl');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(path.join(dir, 'ca.crt'), 'CA PEM');
    writeFileSync(path.join(dir, 'client.crt'), 'CLIENT CERT PEM');
    writeFileSync(path.join(dir, 'client.key'), 'CLIENT KEY PEM');
    file = path.join(dir, 'config');
    kubectlConfig(file, 'set-cluster', 'prod', '--server=https://prod.example:6443/', `--certificate-authority=${path.join(dir, 'ca.crt')}`);
    kubectlConfig(file, 'set-cluster', 'lab', '--server=https://10.0.0.1:6443', '--insecure-skip-tls-verify=true', '--tls-server-name=lab.internal');
    kubectlConfig(file, 'set-credentials', 'alice', `--client-certificate=${path.join(dir, 'client.crt')}`, `--client-key=${path.join(dir, 'client.key')}`);
    kubectlConfig(file, 'set-credentials', 'bot', '--token=static-token');
    kubectlConfig(file, 'set-context', 'prod-alice', '--cluster=prod', '--user=alice', '--namespace=payments');
    kubectlConfig(file, 'set-context', 'lab-bot', '--cluster=lab', '--user=bot');
    kubectlConfig(file, 'use-context', 'prod-alice');
  });

  test('the current context’s cluster and user: CA, client certificate and key read from their files, the namespace', async () => {
    const kc = Kubeconfig.fromFile(file);
    expect(kc.getCurrentContext()).toBe('prod-alice');
    expect(kc.getContextObject('prod-alice')?.namespace).toBe('payments');
    expect(kc.getCurrentCluster()?.server).toBe('https://prod.example:6443');
    expect(kc.getCurrentUser()?.name).toBe('alice');
    const opts = await optionsOf(kc);
    expect([text(opts.ca), text(opts.cert), text(opts.key)]).toEqual(['CA PEM', 'CLIENT CERT PEM', 'CLIENT KEY PEM']);
    expect(opts.headers.Authorization).toBeUndefined();
    expect(opts.rejectUnauthorized).toBeUndefined();
  });

  test('another context: a token, insecure-skip-tls-verify and tls-server-name', async () => {
    const kc = Kubeconfig.fromFile(file);
    kc.setCurrentContext('lab-bot');
    const opts = await optionsOf(kc);
    expect(opts.headers).toEqual({ Authorization: 'Bearer static-token' });
    expect(opts.rejectUnauthorized).toBe(false);
    expect(opts.servername).toBe('lab.internal');
    expect(opts.ca).toBeUndefined();
    expect(() => kc.setCurrentContext('nowhere')).toThrow(`kubeconfig ${file}: context "nowhere" does not exist`);
  });

  test('an exec plugin kubectl wrote (v1beta1, args and env) runs, gets KUBERNETES_EXEC_INFO, and its token is reused until it expires', async () => {
    const dir = path.join(tmp, 'exec');
    execFileSync('mkdir', ['-p', dir]);
    const calls = path.join(dir, 'calls');
    writeFileSync(calls, '');
    writeFileSync(
      path.join(dir, 'plugin.mjs'),
      `import { appendFileSync } from 'node:fs';
appendFileSync(process.env.CALLS, 'x');
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token: process.argv[2] + '-' + info.kind, expirationTimestamp: process.env.EXPIRES } }));
`,
    );
    const config = path.join(dir, 'config');
    kubectlConfig(config, 'set-cluster', 'c', '--server=https://127.0.0.1:6443');
    const credentials = ['--exec-api-version=client.authentication.k8s.io/v1beta1', `--exec-command=${process.execPath}`, `--exec-arg=${path.join(dir, 'plugin.mjs')}`, '--exec-arg=from-plugin', `--exec-env=CALLS=${calls}`];
    kubectlConfig(config, 'set-credentials', 'lasting', ...credentials, `--exec-env=EXPIRES=${new Date(Date.now() + 3600_000).toISOString()}`);
    kubectlConfig(config, 'set-credentials', 'expired', ...credentials, `--exec-env=EXPIRES=${new Date(Date.now() - 1000).toISOString()}`);
    kubectlConfig(config, 'set-context', 'lasting', '--cluster=c', '--user=lasting');
    kubectlConfig(config, 'set-context', 'expired', '--cluster=c', '--user=expired');
    kubectlConfig(config, 'use-context', 'lasting');
    writeFileSync(calls, ''); // kubectl config itself may have run the plugin while writing
    const kc = Kubeconfig.fromFile(config);
    expect((await optionsOf(kc)).headers.Authorization).toBe('Bearer from-plugin-ExecCredential');
    expect((await optionsOf(kc)).headers.Authorization).toBe('Bearer from-plugin-ExecCredential');
    expect(readFileSync(calls, 'utf8')).toBe('x');
    kc.setCurrentContext('expired');
    await optionsOf(kc);
    await optionsOf(kc);
    expect(readFileSync(calls, 'utf8')).toBe('xxx');
  });
});

describe('what the file holds itself', () => {
  const write = (name: string, content: string): string => {
    const file = path.join(tmp, name);
    writeFileSync(file, content);
    return file;
  };
  const b64 = (s: string): string => Buffer.from(s).toString('base64');

  test('-data fields are base64 PEM; relative file names resolve against the kubeconfig’s folder; tokenFile is re-read when it changes; impersonation', async () => {
    writeFileSync(path.join(tmp, 'token'), 'first-token\n');
    const file = write(
      'data.yaml',
      `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: { server: "https://[::1]:6443", certificate-authority-data: ${b64('CA DATA')} }
users:
- name: u
  user: { client-certificate-data: ${b64('CERT DATA')}, client-key-data: ${b64('KEY DATA')}, tokenFile: token, as: impersonated, as-groups: [team-a, team-b] }
contexts:
- name: x
  context: { cluster: c, user: u }
current-context: x
`,
    );
    const kc = Kubeconfig.fromFile(file);
    const opts = await optionsOf(kc);
    expect([text(opts.ca), text(opts.cert), text(opts.key)]).toEqual(['CA DATA', 'CERT DATA', 'KEY DATA']);
    expect(opts.headers).toEqual({ Authorization: 'Bearer first-token', 'Impersonate-User': 'impersonated', 'Impersonate-Group': ['team-a', 'team-b'] });
    writeFileSync(path.join(tmp, 'token'), 'rotated-token-longer\n');
    utimesSync(path.join(tmp, 'token'), new Date(), new Date(Date.now() + 5000));
    expect((await optionsOf(kc)).headers.Authorization).toBe('Bearer rotated-token-longer');
  });

  test('a KUBECONFIG list merges its files: the first file naming an entry or a current context wins', () => {
    const first = write('first.yaml', `clusters: [{ name: shared, cluster: { server: "https://first:6443" } }]\ncontexts: [{ name: a, context: { cluster: shared } }]\ncurrent-context: a\n`);
    const second = write('second.yaml', `clusters: [{ name: shared, cluster: { server: "https://second:6443" } }, { name: own, cluster: { server: "https://own:6443" } }]\ncontexts: [{ name: b, context: { cluster: own } }]\ncurrent-context: b\n`);
    const kc = Kubeconfig.fromFile(`${first}${path.delimiter}${second}`);
    expect(kc.getCurrentContext()).toBe('a');
    expect(kc.getCurrentCluster()?.server).toBe('https://first:6443');
    kc.setCurrentContext('b');
    expect(kc.getCurrentCluster()?.server).toBe('https://own:6443');
    // from $KUBECONFIG, as client-go: a listed file that does not exist is skipped, but not all of them
    const saved = process.env.KUBECONFIG;
    try {
      process.env.KUBECONFIG = [path.join(tmp, 'not-there'), second].join(path.delimiter);
      expect(Kubeconfig.fromDefault().getCurrentContext()).toBe('b');
      process.env.KUBECONFIG = path.join(tmp, 'not-there');
      expect(() => Kubeconfig.fromDefault()).toThrow(`KUBECONFIG=${path.join(tmp, 'not-there')}: none of its files exists`);
      // an environment given is read instead of the process's (the furiko CLI passes its caller's)
      expect(Kubeconfig.fromDefault(undefined, { KUBECONFIG: second }).getCurrentContext()).toBe('b');
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });

  test('an exec plugin (v1) with a relative command runs from the kubeconfig’s folder; a plugin printing the wrong apiVersion is refused', async () => {
    const dir = mkdtempSync(path.join(tmp, 'exec-relative-'));
    writeFileSync(path.join(dir, 'plugin.sh'), `#!/bin/sh\nprintf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"sh-token"}}' "$VERSION"\n`, { mode: 0o755 });
    const config = (version: string): string =>
      `clusters: [{ name: c, cluster: { server: "https://h:1" } }]
users: [{ name: u, user: { exec: { apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, env: [{ name: VERSION, value: "${version}" }] } } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`;
    writeFileSync(path.join(dir, 'good'), config('client.authentication.k8s.io/v1'));
    expect((await optionsOf(Kubeconfig.fromFile(path.join(dir, 'good')))).headers.Authorization).toBe('Bearer sh-token');
    writeFileSync(path.join(dir, 'bad'), config('client.authentication.k8s.io/v1beta1'));
    await expect(optionsOf(Kubeconfig.fromFile(path.join(dir, 'bad')))).rejects.toThrow(
      `kubeconfig ${path.join(dir, 'bad')}: user "u": exec plugin ${path.join(dir, 'plugin.sh')}: printed apiVersion "client.authentication.k8s.io/v1beta1" kind "ExecCredential", expected apiVersion "client.authentication.k8s.io/v1" kind "ExecCredential"`,
    );
  });

  test.each([
    ['no server', `clusters:\n- name: c\n  cluster:\n    certificate-authority-data: eA==\n`, ':3: clusters[0].cluster: cluster "c" has no server'],
    ['a server that is no URL', `clusters:\n- name: c\n  cluster:\n    server: not a url\n`, ':4: clusters[0].cluster.server: not a URL: "not a url"'],
    ['a missing CA file', `clusters:\n- name: c\n  cluster:\n    server: https://h:1\n    certificate-authority: missing-ca.crt\n`, `:5: clusters[0].cluster.certificate-authority: ${path.join(tmp, 'missing-ca.crt')} does not exist`],
    ['insecure-skip-tls-verify not a boolean', `clusters:\n- name: c\n  cluster:\n    server: https://h:1\n    insecure-skip-tls-verify: "yes"\n`, ':5: clusters[0].cluster.insecure-skip-tls-verify: expected true or false, got "yes"'],
    ['an unknown current context', `clusters: []\ncontexts: []\ncurrent-context: gone\n`, ':3: current-context: context "gone" does not exist'],
    ['a context naming a missing user', `clusters: [{ name: c, cluster: { server: "https://h:1" } }]\ncontexts:\n- name: x\n  context: { cluster: c, user: nobody }\ncurrent-context: x\n`, ':4: contexts[0].context.user: user "nobody" does not exist'],
    ['an exec plugin of an unknown apiVersion', `users:\n- name: u\n  user:\n    exec:\n      command: plugin\n      apiVersion: client.authentication.k8s.io/v1alpha1\n`, ':6: users[0].user.exec.apiVersion: expected one of client.authentication.k8s.io/v1, client.authentication.k8s.io/v1beta1, got "client.authentication.k8s.io/v1alpha1"'],
    ['an auth-provider', `users:\n- name: u\n  user:\n    auth-provider:\n      name: gcp\n`, ':4: users[0].user.auth-provider: auth-provider plugins are not supported'],
    ['an entry without a name', `users:\n- user: {}\n`, ':2: users[0]: expected an entry with a name'],
    ['not YAML', `clusters: [\n`, ':1: not valid YAML'],
  ])('%s: the error names the file, the line and the field', (_what, content, expected) => {
    const file = write('bad.yaml', content);
    expect(() => Kubeconfig.fromFile(file)).toThrow(`kubeconfig ${file}${expected}`);
  });

  test('a missing file is named', () => {
    expect(() => Kubeconfig.fromFile(path.join(tmp, 'absent'))).toThrow(`kubeconfig ${path.join(tmp, 'absent')}: the file does not exist`);
  });
});

test('in-cluster folder: https server (IPv6 bracketed), the mounted CA, the token re-read when rotated, the namespace', async () => {
  const dir = mkdtempSync(path.join(tmp, 'sa-'));
  writeFileSync(path.join(dir, 'token'), 'sa-token');
  writeFileSync(path.join(dir, 'ca.crt'), 'SA CA');
  writeFileSync(path.join(dir, 'namespace'), 'operators\n');
  const kc = inClusterKubeConfig({ dir, env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' } });
  expect(kc.getCurrentCluster()?.server).toBe('https://[fd00::1]:443');
  expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('operators');
  const opts = await optionsOf(kc);
  expect([text(opts.ca), opts.headers.Authorization]).toEqual(['SA CA', 'Bearer sa-token']);
  writeFileSync(path.join(dir, 'token'), 'sa-token-rotated');
  utimesSync(path.join(dir, 'token'), new Date(), new Date(Date.now() + 5000));
  expect((await optionsOf(kc)).headers.Authorization).toBe('Bearer sa-token-rotated');
  expect(inClusterKubeConfig({ dir, env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '8080' } }).getCurrentCluster()?.server).toBe('http://10.0.0.1:8080');
});

describe('the Manager', () => {
  const logger = pino({ level: 'silent' });

  test('takes any object shaped like a kubeconfig (no class required) and asks it for credentials per request', () => {
    const shaped: KubeConfigLike = {
      getCurrentContext: () => 'own',
      getCurrentCluster: () => ({ name: 'own', server: 'https://127.0.0.1:1' }),
      getCurrentUser: () => ({ name: 'own-user', token: 't' }),
      applyToHTTPSOptions: async () => {},
    };
    const mgr = new Manager({ kubeConfig: shaped, clock: new ManualClock(0), logger });
    expect(mgr.kubeConfig).toBe(shaped);
  });

  test('reads a kubeconfig file with its own loader, and names the file when it is broken', () => {
    const file = path.join(tmp, 'manager.yaml');
    writeFileSync(file, `clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1" } }]\nusers: [{ name: u, user: { token: t } }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\ncurrent-context: x\n`);
    const mgr = new Manager({ kubeConfig: file, clock: new ManualClock(0), logger });
    expect(mgr.kubeConfig).toBeInstanceOf(Kubeconfig);
    expect(mgr.kubeConfig.getCurrentUser()?.token).toBe('t');
    writeFileSync(file, `clusters: [{ name: c, cluster: { server: 42 } }]\n`);
    expect(() => new Manager({ kubeConfig: file, clock: new ManualClock(0), logger })).toThrow(`kubeconfig ${file}:1: clusters[0].cluster.server: expected a string, got 42`);
  });
});
