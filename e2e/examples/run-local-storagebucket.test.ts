/**
 * The StorageBucket example (issue 19) against `make run-local`: the example copied to a temporary folder with
 * this checkout's node_modules linked (no npm install: it declares the S3 client and s3rver, which the other
 * examples' shared install in run-local.test.ts does not), started with a 2 s --probe-interval and no
 * --s3-endpoint. run-local then starts an s3rver too and logs its endpoint; the test makes the sample's bucket
 * there, applies config/samples with kubectl, sees `available: true`, deletes the bucket and sees `false`.
 * Real processes on the real clock, so bounded real-time waits are legitimate here (polling for the KUBECONFIG=
 * line, `kubectl wait --timeout` for the sample's status). The AWS SDK's
 * NodeVersionSupportWarning (Node 20) must not reach the output.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { groupAlive, stopGroup } from '../process-group.js';
import { CHECKOUT, linkDependencies } from '../scaffold/scaffold-harness.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 250 ms until it gives a value or `limitMs` passes; undefined when it never did. */
async function poll<T>(check: () => Promise<T | undefined> | T | undefined, limitMs: number): Promise<T | undefined> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= end) return undefined;
    await sleep(250);
  }
}

/** The environment of a plain shell: no npm_* variables, no NODE_OPTIONS (jest's vm modules), no jest worker id. */
function plainEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID' && k !== 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'));
}

test('make run-local starts an s3rver when --s3-endpoint is absent; the sample turns available, then unavailable when its bucket goes', async () => {
  if (!existsSync(join(CHECKOUT, 'dist/cluster/index.js'))) throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` first`);
  const temp = mkdtempSync(join(tmpdir(), 'kubeforge-storagebucket-'));
  const root = join(temp, 'storagebucket');
  cpSync(join(CHECKOUT, 'examples/storagebucket'), root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
  linkDependencies(root);
  // KUBEFORGE as the installed bin (no npx: 0.35 s of CPU per run; run-local.test.ts says why that proves as much)
  const child = spawn('make', ['run-local', 'MANAGER_FLAGS=--health-probe-bind-address=:0 --probe-interval=2s', 'KUBEFORGE=node_modules/.bin/kubeforge'], { cwd: root, env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-50_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.on('exit', () => (exited = true));
  let kubectl: Kubectl | undefined;
  let s3: S3Client | undefined;
  try {
    const started = await poll(() => /export KUBECONFIG=(\S+)\n/.exec(output) ?? (exited ? null : undefined), 90_000);
    if (!started) throw new Error(`make run-local did not print the KUBECONFIG= line:\n${output}`);
    const endpoint = /"msg":"no --s3-endpoint: started s3rver at (http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
    if (!endpoint) throw new Error(`run-local did not log the s3rver it started:\n${output}`);
    // This test's own client stays quiet the same documented way (the child's environment goes without it).
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await s3.send(new CreateBucketCommand({ Bucket: 'storagebucket-sample' }));

    kubectl = new Kubectl(started[1]!);
    const applied = await kubectl.run(['apply', '-k', join(root, 'config/samples')]);
    expect({ code: applied.code, stdout: applied.stdout, stderr: applied.stderr }).toEqual({ code: 0, stdout: 'storagebucket.storage.example.com/storagebucket-sample created\n', stderr: '' });
    const available = (): Promise<string> => kubectl!.ok(['get', 'storagebucket', 'storagebucket-sample', '-o', 'jsonpath={.status.available}']);
    // `kubectl wait` watches for the value (up to 10 s) in one process, where polling ran kubectl every 250 ms.
    const availableBecomes = async (value: 'true' | 'false'): Promise<{ code: number; stderr: string }> => {
      const waited = await kubectl!.run(['wait', 'storagebucket/storagebucket-sample', `--for=jsonpath={.status.available}=${value}`, '--timeout=10s']);
      return { code: waited.code, stderr: waited.stderr };
    };
    expect(await availableBecomes('true')).toEqual({ code: 0, stderr: '' });
    expect(await available()).toBe('true');

    await s3.send(new DeleteBucketCommand({ Bucket: 'storagebucket-sample' }));
    // The next tick (2 s) finds it gone; nothing in the cluster changed in between.
    expect(await availableBecomes('false')).toEqual({ code: 0, stderr: '' });
    expect(await available()).toBe('false');
    const condition = await kubectl.ok(['get', 'storagebucket', 'storagebucket-sample', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].reason}']);
    expect(condition).toBe('BucketNotFound');
    const columns = (await kubectl.ok(['get', 'storagebucket', 'storagebucket-sample'])).split('\n')[0];
    expect(columns?.split(/\s{2,}/)).toEqual(['NAME', 'BUCKET', 'AVAILABLE', 'LAST PROBE', 'AGE']);
    expect(output).not.toContain('NodeVersionSupportWarning');
  } finally {
    s3?.destroy();
    kubectl?.cleanup();
    await stopGroup(child);
    rmSync(temp, { recursive: true, force: true });
  }
  expect(groupAlive(child.pid!)).toBe(false);
}, 150_000);
