/**
 * What the per-example `make deploy` proofs share: a copy of a reference operator with this checkout's
 * node_modules linked and its manager built, the config/default [CERTMANAGER] sections enabled when it
 * has webhooks (as `create webhook` enables them), a local cluster on a virtual clock running the
 * project's IMG (`controller:latest`) as a real process with the cert-manager stand-in, and kubectl
 * against it — plus small waits: processes run on the real clock, so a check is polled while the
 * cluster's clock is stepped.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { startLocalCluster, type LocalCluster } from '../../src/cluster/index.js';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { CHECKOUT, linkDependencies } from '../scaffold/scaffold-harness.js';
import { emitProject } from './project-emit.js';

export interface DeployedExample {
  root: string;
  cluster: LocalCluster;
  kubectl: Kubectl;
  /** config/default's namespace and name prefix. */
  namespace: string;
  prefix: string;
  /** Whether the example has webhooks (config/webhook in config/default). */
  webhooks: boolean;
  remove(): Promise<void>;
}

/**
 * Copies `examples/<name>`, links node_modules, checks cert-manager is enabled when it has webhooks, and emits
 * dist/ (project-emit.ts).
 */
export function prepareExample(name: string): { root: string; namespace: string; prefix: string; webhooks: boolean; temp: string } {
  // the copy runs kubeforge's compiled output (dist/), which this checkout's `npm test` builds first
  if (!existsSync(join(CHECKOUT, 'dist/runtime/index.js')) || !existsSync(join(CHECKOUT, 'dist/cli/main.js'))) throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` (npm test does) first`);
  const temp = mkdtempSync(join(tmpdir(), `kubeforge-deploy-${name}-`));
  const root = join(temp, name);
  cpSync(join(CHECKOUT, 'examples', name), root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
  linkDependencies(root);
  const kustomizationPath = join(root, 'config/default/kustomization.yaml');
  const text = readFileSync(kustomizationPath, 'utf8');
  const webhooks = /^- \.\.\/webhook$/m.test(text);
  // `create webhook` enabled cert-manager and CA injection in config/default, as kubebuilder 4's does
  if (webhooks && !(/^- \.\.\/certmanager$/m.test(text) && /^replacements:$/m.test(text))) throw new Error(`${kustomizationPath}: has webhooks but not the [CERTMANAGER] sections create webhook enables`);
  const parsed = parseDocument(text).toJS() as { namespace: string; namePrefix: string };
  // tsc's emit without its type-check (examples/ are type-checked by npm test and built by make run-local)
  emitProject(root);
  if (!existsSync(join(root, 'dist/cmd/main.js'))) throw new Error(`${root}: the build made no dist/cmd/main.js`);
  return { root, namespace: parsed.namespace, prefix: parsed.namePrefix, webhooks, temp };
}

/**
 * Starts a local cluster (virtual clock, kubelet running `controller:latest` from the copy, cert-manager
 * stand-in). `clockBehindMs` starts the cluster's clock that far behind the real one the manager processes
 * run on, so objects are created "earlier" than the manager's now (a CronJob's missed run is due at once).
 */
export async function deployableExample(name: string, options: { clockBehindMs?: number } = {}): Promise<DeployedExample> {
  const prepared = prepareExample(name);
  // OwnerReferencesPermissionEnforcement on, as OpenShift runs it: the managers' `<kind>/finalizers` grants are put to use
  const cluster = await startLocalCluster({ images: { 'controller:latest': prepared.root }, certManager: true, enabledAdmissionPlugins: ['OwnerReferencesPermissionEnforcement'], ...(options.clockBehindMs ? { now: new Date(Date.now() - options.clockBehindMs) } : {}) });
  const kubectl = new Kubectl(cluster.kubeconfigPath);
  return {
    ...prepared,
    cluster,
    kubectl,
    async remove() {
      kubectl.cleanup();
      await cluster.stop();
      rmSync(prepared.temp, { recursive: true, force: true });
    },
  };
}

/**
 * GET `path` (an API path with its query) from the cluster as its admin, in this process: the parsed JSON of a
 * 200 reply. For the polls whose point is the cluster's state, not kubectl (a kubectl process costs about
 * 40 ms of CPU, this a few); throws on any other status, naming it and the reply.
 */
export function adminGet<T>(cluster: LocalCluster, path: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, cluster.url), { ca: cluster.caCertPem, headers: { Authorization: `Bearer ${cluster.adminToken}`, Accept: 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${String(res.statusCode)} ${body}`));
        else resolve(JSON.parse(body) as T);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A settle() or clock step that may end before the cluster is quiet: the manager processes are the cluster's
 * clients on the real clock, and while one is busy (starting, listing) the cluster may not be quiet within
 * settle()'s rounds. That is no failure here: the caller looks again.
 */
export function settled(step: Promise<unknown>): Promise<unknown> {
  return step.catch((err: Error) => {
    if (!/did not become quiet/.test(err.message)) throw err;
  });
}

/**
 * Polls `check` (settling the cluster and stepping its clock by `stepMs` between looks) until it gives a
 * value; the processes' own start and answers take real time.
 */
export async function until<T>(cluster: LocalCluster, what: string, check: () => Promise<T | undefined | false | null>, options: { stepMs?: number; timeoutMs?: number } = {}): Promise<T> {
  const end = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    await settled(cluster.settle());
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    if (options.stepMs) await settled(cluster.clock.advance(options.stepMs));
    await new Promise((r) => setTimeout(r, 100));
  }
}
