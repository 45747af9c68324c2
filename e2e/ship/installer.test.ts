/**
 * Installers (issue 15) against the local cluster with the real kubectl 1.32 and its kustomize: `make
 * build-installer IMG=…` writes installer/install.yaml — outside tsc's dist/, not git-ignored, the image
 * substituted — and one `kubectl apply -f` of it creates the CRD, the namespace, the RBAC, the Deployment,
 * the Services and the webhook configurations; `make deploy` (server-side apply) twice and `make undeploy`
 * (--ignore-not-found) twice all exit 0, and undeploy leaves nothing behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startLocalCluster, type LocalCluster } from '../../src/cluster/index.js';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { createApi, createWebhook, init, linkDependencies } from '../scaffold/scaffold-harness.js';
import { plainEnv, runCommand } from './ship-harness.js';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: { template?: { spec?: { containers?: Array<{ image: string }> } } };
}

describe('build-installer, deploy and undeploy on the local cluster', () => {
  let parent: string;
  let project: string;
  let cluster: LocalCluster;
  let kubectl: Kubectl;
  let makeEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'kubeforge-installer-'));
    project = join(parent, 'shop');
    expect(init(project, { domain: 'example.com', repo: 'shop-operator' })).toMatchObject({ code: 0, err: '' });
    expect(await createApi(project, { group: 'shop', version: 'v1', kind: 'Cart' })).toMatchObject({ code: 0, err: '' });
    expect(await createWebhook(project, { group: 'shop', version: 'v1', kind: 'Cart', defaulting: true, programmaticValidation: true })).toMatchObject({ code: 0, err: '' });
    linkDependencies(project);
    // cert-manager's kinds served (create webhook enabled config/default's cert-manager parts), as on a cluster
    // where cert-manager is installed — kubebuilder's installer needs it too.
    cluster = await startLocalCluster({ certManager: true });
    kubectl = new Kubectl(cluster.kubeconfigPath);
    makeEnv = plainEnv({ KUBECONFIG: cluster.kubeconfigPath, HOME: join(parent, 'home'), KUBECACHEDIR: join(parent, 'home/.kube/cache') });
  }, 120_000);
  afterAll(async () => {
    kubectl?.cleanup();
    await cluster?.stop();
    rmSync(parent, { recursive: true, force: true });
  });

  async function make(...args: string[]): Promise<{ code: number; output: string }> {
    const { code, output } = await runCommand('make', args, project, makeEnv);
    return { code, output };
  }

  it('writes one committed file outside dist/ that one kubectl apply -f installs', async () => {
    const built = await make('build-installer', 'IMG=registry.example.com/shop:v0.1.0');
    expect({ code: built.code, output: built.code === 0 ? '' : built.output }).toEqual({ code: 0, output: '' });
    const installer = join(project, 'installer/install.yaml');
    expect(existsSync(installer)).toBe(true);
    expect(existsSync(join(project, 'dist/install.yaml'))).toBe(false);
    // Committed: git does not ignore it (tsc's dist/ is ignored).
    spawnSync('git', ['init', '-q'], { cwd: project });
    expect(spawnSync('git', ['check-ignore', '-q', 'installer/install.yaml'], { cwd: project }).status).toBe(1);
    expect(spawnSync('git', ['check-ignore', '-q', 'dist/install.yaml'], { cwd: project }).status).toBe(0);

    const manifests = parseAllDocuments(readFileSync(installer, 'utf8')).map((d) => d.toJS() as Manifest);
    const kinds = new Set(manifests.map((m) => m.kind));
    for (const kind of ['CustomResourceDefinition', 'Namespace', 'ServiceAccount', 'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'Deployment', 'Service', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      expect({ kind, present: kinds.has(kind) }).toEqual({ kind, present: true });
    }
    const deployment = manifests.find((m) => m.kind === 'Deployment')!;
    expect(deployment.spec?.template?.spec?.containers?.map((c) => c.image)).toEqual(['registry.example.com/shop:v0.1.0']);

    await kubectl.ok(['apply', '-f', installer]);
    const created = (await kubectl.ok(['get', '-f', installer, '-o', 'name'])).trim().split('\n');
    expect(created).toHaveLength(manifests.length);
    expect(created).toEqual(expect.arrayContaining(['namespace/shop-system', 'deployment.apps/shop-controller-manager', 'service/shop-webhook-service', 'customresourcedefinition.apiextensions.k8s.io/carts.shop.example.com']));
  }, 180_000);

  it('deploys twice and undeploys twice, each exiting 0, and undeploy leaves nothing behind', async () => {
    for (const target of ['deploy', 'deploy', 'undeploy', 'undeploy']) {
      const result = await make(target, 'IMG=registry.example.com/shop:v0.1.0');
      expect({ target, code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ target, code: 0, output: '' });
      if (target === 'deploy') expect(await kubectl.ok(['get', 'deployment', '-n', 'shop-system', 'shop-controller-manager', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])).toBe('registry.example.com/shop:v0.1.0');
    }
    const left = await kubectl.run(['get', '-f', join(project, 'installer/install.yaml'), '-o', 'name', '--ignore-not-found']);
    expect({ code: left.code, stdout: left.stdout }).toEqual({ code: 0, stdout: '' });
  }, 240_000);
});
