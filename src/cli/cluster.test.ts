/** `kubeforge cluster start` in-process: prints the KUBECONFIG line, serves kubectl, stops on SIGINT. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { main } from './main.js';

/** A temporary folder for the kubeconfig, and what `cluster start` prints captured instead of shown. */
function captureStart() {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-cli-cluster-'));
  let printed = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  }) as typeof process.stdout.write);
  return { dir, kubeconfig: join(dir, 'kubeconfig'), write, output: () => printed };
}

test('cluster start prints the export line, serves kubectl, and stops cleanly on Ctrl-C', async () => {
  const { dir, kubeconfig, write, output } = captureStart();
  try {
    const running = main(['node', 'kubeforge', 'cluster', 'start', '--kubeconfig', kubeconfig, '--now', '2026-11-22T10:00:00Z']);
    for (let i = 0; i < 500 && !output().includes('export KUBECONFIG='); i++) await new Promise((r) => setTimeout(r, 10));
    expect(output()).toMatch(/serving at https:\/\/127\.0\.0\.1:\d+\n/);
    expect(output()).toContain(`export KUBECONFIG=${kubeconfig}\n`);
    const home = join(dir, 'home');
    const { stdout: ns } = await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, 'get', 'ns', 'default', '-o', 'name'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: join(home, 'cache') } });
    expect(ns).toBe('namespace/default\n');
    process.emit('SIGINT');
    expect(await running).toBe(0);
    expect(output()).toContain('kubeforge local cluster stopped');
  } finally {
    write.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster start refuses a bad --now with a clear error', async () => {
  await expect(main(['node', 'kubeforge', 'cluster', 'start', '--now', 'yesterday'])).rejects.toThrow('--now: expected an RFC 3339 time, got "yesterday"');
});

test('cluster start --cert-user adds a client-certificate user and context to the kubeconfig', async () => {
  const { dir, kubeconfig, write, output } = captureStart();
  try {
    const running = main(['node', 'kubeforge', 'cluster', 'start', '--kubeconfig', kubeconfig, '--cert-user', 'alice:dev,ops', '--cert-user', 'bob']);
    for (let i = 0; i < 500 && !output().includes('user bob'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(output()).toContain('client-certificate user alice (groups: dev,ops): kubectl --context kubeforge-alice\n');
    expect(output()).toContain('client-certificate user bob (groups: none): kubectl --context kubeforge-bob\n');
    const home = join(dir, 'home');
    const { stdout } = await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, '--context', 'kubeforge-alice', 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: join(home, 'cache') },
    });
    expect(stdout).toBe('alice ["dev","ops","system:authenticated"]');
    process.emit('SIGINT');
    expect(await running).toBe(0);
  } finally {
    write.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster start refuses a malformed --cert-user', async () => {
  await expect(main(['node', 'kubeforge', 'cluster', 'start', '--cert-user', 'alice:'])).rejects.toThrow('--cert-user: expected <user> or <user>:<group>,<group>, got "alice:"');
});

test('cluster start --image runs a pod of that image as a process of the mapped project (real clock)', async () => {
  const { dir, kubeconfig, write, output } = captureStart();
  const project = join(process.cwd(), 'e2e', 'cluster', 'fixtures', 'process-image');
  const home = join(dir, 'home');
  const kubectl = (args: string[], input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: join(home, 'cache') } }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(stdout),
      );
      child.stdin?.end(input ?? '');
    });
  try {
    const running = main(['node', 'kubeforge', 'cluster', 'start', '--kubeconfig', kubeconfig, '--image', `hello=${project}`]);
    for (let i = 0; i < 500 && !output().includes('export KUBECONFIG='); i++) await new Promise((r) => setTimeout(r, 10));
    expect(output()).toContain(`image hello runs from ${project}\n`);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hello' }, spec: { containers: [{ name: 'app', image: 'docker.io/library/hello:latest', env: [{ name: 'MODE', value: 'serve' }] }] } };
    await kubectl(['apply', '-f', '-'], JSON.stringify(pod));
    let logs = '';
    for (let i = 0; i < 200 && !logs.includes('listening on'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      logs = await kubectl(['logs', 'hello']).catch(() => '');
    }
    // stdout and stderr are two pipes: their lines keep their own order, not one between the two.
    const lines = logs.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.filter((l) => l !== 'a line on stderr')).toEqual([expect.stringMatching(/^hello from hello: pod IP undefined, /), expect.stringMatching(/^listening on 127\.2\d\d\.0\.\d+:8080$/)]);
    expect(lines).toContain('a line on stderr');
    process.emit('SIGINT');
    expect(await running).toBe(0);
  } finally {
    write.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cluster start refuses a malformed --image or a missing project folder', async () => {
  await expect(main(['node', 'kubeforge', 'cluster', 'start', '--image', 'controller'])).rejects.toThrow('--image: expected <image>=<project dir>, got "controller"');
  await expect(main(['node', 'kubeforge', 'cluster', 'start', '--image', 'controller=/nowhere/at/all'])).rejects.toThrow('--image controller=/nowhere/at/all: project folder /nowhere/at/all does not exist');
});

test('cluster start --cert-manager serves the cert-manager.io kinds', async () => {
  const { dir, kubeconfig, write, output } = captureStart();
  try {
    const running = main(['node', 'kubeforge', 'cluster', 'start', '--kubeconfig', kubeconfig, '--cert-manager']);
    for (let i = 0; i < 500 && !output().includes('export KUBECONFIG='); i++) await new Promise((r) => setTimeout(r, 10));
    expect(output()).toContain('cert-manager.io Issuers and Certificates are served (selfSigned and ca issuers; CA injection)\n');
    const home = join(dir, 'home');
    const kubectl = (...args: string[]) => promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: join(home, 'cache') } });
    let served = '';
    for (let i = 0; i < 50 && !served.includes('certificates.cert-manager.io'); i++) {
      served = (await kubectl('api-resources', '--api-group=cert-manager.io', '-o', 'name')).stdout;
      if (!served.includes('certificates.cert-manager.io')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(served.split('\n').filter(Boolean).sort()).toEqual(['certificates.cert-manager.io', 'clusterissuers.cert-manager.io', 'issuers.cert-manager.io']);
    process.emit('SIGINT');
    expect(await running).toBe(0);
  } finally {
    write.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
});
