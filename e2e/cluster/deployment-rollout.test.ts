/**
 * Deployments roll out on the local cluster as on kind, driven by real kubectl 1.32: create, the real
 * pod-template-hash names, rollout status/history/undo/restart/pause/resume, set image, scale with
 * proportional scaling during a stuck rollout (the numbers of the Kubernetes docs' example), the progress
 * deadline, describe and the get tables — with the virtual clock stepped in the background while
 * kubectl waits.
 */
import { AppsV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args);
const replicaSetsOf = async (app: string): Promise<any[]> =>
  (await getJson(['get', 'rs', '-l', `app=${app}`])).items.sort((a: any, b: any) => Number(a.metadata.annotations['deployment.kubernetes.io/revision']) - Number(b.metadata.annotations['deployment.kubernetes.io/revision']));
const sizes = (list: any[]): string[] => list.map((rs) => `${rs.metadata.annotations['deployment.kubernetes.io/revision']}:${rs.spec.replicas}`);
const scalingEvents = async (name: string): Promise<string[]> =>
  (await getJson(['get', 'events', '--field-selector', `involvedObject.kind=Deployment,involvedObject.name=${name}`])).items
    .filter((e: any) => e.reason === 'ScalingReplicaSet')
    .sort((a: any, b: any) => a.metadata.name.localeCompare(b.metadata.name))
    .map((e: any) => e.message);

/**
 * Runs `work` (a kubectl that watches deployments) and, once its watch request has reached the server,
 * moves the virtual clock one step at a time until it ends.
 */
async function withClockRunning<T>(work: Promise<T>, stepMs = 1000): Promise<T> {
  let done = false;
  const seen = suite.cluster.requestLog().length;
  const finished = work.finally(() => (done = true));
  const stepping = (async () => {
    // wait (polling, no clock involved) until kubectl watches, so it sees every step
    while (!done && !suite.cluster.requestLog().slice(seen).some((e) => e.verb === 'watch' && e.resource === 'deployments')) await new Promise((r) => setTimeout(r, 10));
    while (!done) {
      await suite.cluster.clock.advance(stepMs);
      // let kubectl's watch read what the step changed before the next one
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const result = await finished;
  await stepping;
  return result;
}

const webDeployment = (name: string, replicas: number, annotations: Record<string, string>, strategy: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string =>
  stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      ...strategy,
      ...extra,
      template: { metadata: { labels: { app: name }, annotations }, spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } },
    },
  });

test('kubectl create deployment: the ReplicaSet gets the hash a 1.32 cluster gives, pods become Ready, Available is met', async () => {
  expect(await kubectl.ok(['create', 'deployment', 'nginx', '--image=nginx', '--replicas=3'])).toBe('deployment.apps/nginx created\n');
  await suite.cluster.settle();
  const rs = await getJson(['get', 'rs', 'nginx-5869d7778c']);
  expect(rs.metadata.labels).toEqual({ app: 'nginx', 'pod-template-hash': '5869d7778c' });
  expect(rs.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Deployment', name: 'nginx', controller: true, blockOwnerDeletion: true })]);
  expect(await kubectl.ok(['rollout', 'status', 'deployment/nginx', '--timeout=20s'])).toBe('deployment "nginx" successfully rolled out\n');
  expect(await kubectl.ok(['wait', '--for=condition=Available', 'deployment/nginx', '--timeout=20s'])).toBe('deployment.apps/nginx condition met\n');

  const table = await kubectl.ok(['get', 'deploy,rs', '-l', 'app=nginx']);
  expect(table).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ndeployment\.apps\/nginx\s+3\/3\s+3\s+3\s+0s\n/);
  expect(table).toMatch(/NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nreplicaset\.apps\/nginx-5869d7778c\s+3\s+3\s+3\s+0s\n/);
  const pods = (await kubectl.ok(['get', 'pods', '-l', 'app=nginx', '--no-headers'])).trim().split('\n');
  expect(pods).toHaveLength(3);
  for (const line of pods) expect(line).toMatch(/^nginx-5869d7778c-[bcdfghjklmnpqrstvwxz2456789]{5}\s+1\/1\s+Running\s+0\s+0s$/);
  expect(await kubectl.ok(['get', 'rs', 'nginx-5869d7778c', '-o', 'wide', '--no-headers'])).toMatch(/^nginx-5869d7778c\s+3\s+3\s+3\s+0s\s+nginx\s+nginx\s+app=nginx,pod-template-hash=5869d7778c\n$/);
  expect(await scalingEvents('nginx')).toEqual(['Scaled up replica set nginx-5869d7778c from 0 to 3']);
  const events = (await getJson(['get', 'events', '--field-selector', 'involvedObject.name=nginx-5869d7778c'])).items;
  expect(events.map((e: any) => `${e.reason} ${e.source.component}`)).toEqual(Array(3).fill('SuccessfulCreate replicaset-controller'));
});

test('rollout status waits for slow pods while the clock moves; set image rolls with maxSurge 1 / maxUnavailable 0', async () => {
  await kubectl.ok(['apply', '-f', '-'], webDeployment('web', 4, { 'sim.kubeforge.io/start-delay': '5s' }, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
  const first = await withClockRunning(kubectl.run(['rollout', 'status', 'deployment/web', '--timeout=60s']));
  expect(first.code).toBe(0);
  expect(first.stdout).toContain('Waiting for deployment "web" rollout to finish: 0 of 4 updated replicas are available...\n');
  expect(first.stdout.endsWith('deployment "web" successfully rolled out\n')).toBe(true);

  expect(await kubectl.ok(['set', 'image', 'deployment/web', 'app=nginx:1.27'])).toBe('deployment.apps/web image updated\n');
  await suite.cluster.settle();
  // surge one new pod; nothing old goes before it is available
  expect(sizes(await replicaSetsOf('web'))).toEqual(['1:4', '2:1']);
  const second = await withClockRunning(kubectl.run(['rollout', 'status', 'deployment/web', '--timeout=120s']));
  expect(second.code).toBe(0);
  // how many steps kubectl sees depends on when its watch starts: the messages, not their count
  expect(second.stdout).toMatch(/^Waiting for deployment "web" rollout to finish: [1-3] out of 4 new replicas have been updated...\n/);
  expect(second.stdout).toContain('Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...\n');
  expect(sizes(await replicaSetsOf('web'))).toEqual(['1:0', '2:4']);
  const [oldRs, newRs] = await replicaSetsOf('web');
  expect(await scalingEvents('web')).toEqual([
    `Scaled up replica set ${oldRs.metadata.name} from 0 to 4`,
    `Scaled up replica set ${newRs.metadata.name} from 0 to 1`,
    `Scaled down replica set ${oldRs.metadata.name} from 4 to 3`,
    `Scaled up replica set ${newRs.metadata.name} from 1 to 2`,
    `Scaled down replica set ${oldRs.metadata.name} from 3 to 2`,
    `Scaled up replica set ${newRs.metadata.name} from 2 to 3`,
    `Scaled down replica set ${oldRs.metadata.name} from 2 to 1`,
    `Scaled up replica set ${newRs.metadata.name} from 3 to 4`,
    `Scaled down replica set ${oldRs.metadata.name} from 1 to 0`,
  ]);
  const d = await getJson(['get', 'deployment', 'web']);
  expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
  expect(d.status).toMatchObject({ observedGeneration: 2, replicas: 4, updatedReplicas: 4, readyReplicas: 4, availableReplicas: 4 });
  expect(d.status.conditions.map((c: any) => `${c.type}/${c.status}/${c.reason}/${c.message}`)).toEqual([
    'Available/True/MinimumReplicasAvailable/Deployment has minimum availability.',
    `Progressing/True/NewReplicaSetAvailable/ReplicaSet "${newRs.metadata.name}" has successfully progressed.`,
  ]);
});

test('rollout history, undo to the previous template (revision 3, history 1), and restart making a new ReplicaSet', async () => {
  const history = await kubectl.ok(['rollout', 'history', 'deployment/web']);
  expect(history).toMatch(/^deployment\.apps\/web \nREVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n\n$/);
  expect(await kubectl.ok(['rollout', 'undo', 'deployment/web'])).toBe('deployment.apps/web rolled back\n');
  await withClockRunning(kubectl.ok(['rollout', 'status', 'deployment/web', '--timeout=120s']));
  const [back, second] = await replicaSetsOf('web').then((l) => [l.find((rs) => rs.spec.template.spec.containers[0].image === 'nginx:1.26'), l.find((rs) => rs.spec.template.spec.containers[0].image === 'nginx:1.27')]);
  expect(back.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1' });
  expect(back.spec.replicas).toBe(4);
  expect(second.spec.replicas).toBe(0);
  expect(await kubectl.ok(['rollout', 'history', 'deployment/web'])).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/);
  expect(await kubectl.ok(['rollout', 'history', 'deployment/web', '--revision=2'])).toContain('Image:\tnginx:1.27');

  expect(await kubectl.ok(['rollout', 'restart', 'deployment/web'])).toBe('deployment.apps/web restarted\n');
  await withClockRunning(kubectl.ok(['rollout', 'status', 'deployment/web', '--timeout=120s']));
  const all = await replicaSetsOf('web');
  expect(all).toHaveLength(3);
  const restarted = all[2];
  expect(restarted.metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
  expect(restarted.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toBeDefined();
  expect(restarted.spec.replicas).toBe(4);
});

test('a paused Deployment takes template changes without rolling; resume rolls them out', async () => {
  expect(await kubectl.ok(['rollout', 'pause', 'deployment/web'])).toBe('deployment.apps/web paused\n');
  await kubectl.ok(['set', 'image', 'deployment/web', 'app=nginx:1.28']);
  await suite.cluster.settle();
  const paused = await getJson(['get', 'deployment', 'web']);
  expect(paused.status.conditions.find((c: any) => c.type === 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
  expect((await replicaSetsOf('web')).some((rs) => rs.spec.template.spec.containers[0].image === 'nginx:1.28')).toBe(false);
  expect(paused.status.observedGeneration).toBe(paused.metadata.generation);

  expect(await kubectl.ok(['rollout', 'resume', 'deployment/web'])).toBe('deployment.apps/web resumed\n');
  await withClockRunning(kubectl.ok(['rollout', 'status', 'deployment/web', '--timeout=120s']));
  const rolled = (await replicaSetsOf('web')).find((rs) => rs.spec.template.spec.containers[0].image === 'nginx:1.28');
  expect(rolled.spec.replicas).toBe(4);
  expect(rolled.metadata.annotations['deployment.kubernetes.io/revision']).toBe('5');
});

test("scaling during a stuck rollout is proportional: the docs' 10 → 15 example ends with 11 old and 7 new", async () => {
  // maxSurge 3, maxUnavailable 2, as in the Kubernetes docs' "Proportional scaling" section
  await kubectl.ok(['apply', '-f', '-'], webDeployment('prop', 10, {}, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } }));
  await kubectl.ok(['rollout', 'status', 'deployment/prop', '--timeout=20s']);
  // the new template's pods never start (as with an image that cannot be pulled)
  await kubectl.ok(['patch', 'deployment', 'prop', '--type=merge', '-p', JSON.stringify({ spec: { template: { metadata: { annotations: { 'sim.kubeforge.io/outcome': 'pending' } }, spec: { containers: [{ name: 'app', image: 'nginx:sometag' }] } } } })]);
  await suite.cluster.settle();
  expect(sizes(await replicaSetsOf('prop'))).toEqual(['1:8', '2:5']);
  expect(await kubectl.ok(['scale', 'deployment/prop', '--replicas=15'])).toBe('deployment.apps/prop scaled\n');
  await suite.cluster.settle();
  expect(sizes(await replicaSetsOf('prop'))).toEqual(['1:11', '2:7']);
  const [oldRs, newRs] = await replicaSetsOf('prop');
  expect(oldRs.metadata.annotations['deployment.kubernetes.io/max-replicas']).toBe('18');
  expect((await scalingEvents('prop')).slice(-2)).toEqual([`Scaled up replica set ${oldRs.metadata.name} from 8 to 11`, `Scaled up replica set ${newRs.metadata.name} from 5 to 7`]);
});

test('the progress deadline: Progressing=False ProgressDeadlineExceeded and rollout status fails', async () => {
  await kubectl.ok(['apply', '-f', '-'], webDeployment('stuck', 2, { 'sim.kubeforge.io/outcome': 'pending' }, {}, { progressDeadlineSeconds: 30 }));
  await suite.cluster.settle();
  const r = await withClockRunning(kubectl.run(['rollout', 'status', 'deployment/stuck', '--timeout=60s']), 5000);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe('error: deployment "stuck" exceeded its progress deadline\n');
  const d = await getJson(['get', 'deployment', 'stuck']);
  const [rs] = await replicaSetsOf('stuck');
  expect(d.status.conditions.map((c: any) => `${c.type}/${c.status}/${c.reason}/${c.message}`)).toEqual([
    'Available/False/MinimumReplicasUnavailable/Deployment does not have minimum availability.',
    `Progressing/False/ProgressDeadlineExceeded/ReplicaSet "${rs.metadata.name}" has timed out progressing.`,
  ]);
  expect(d.status).toMatchObject({ replicas: 2, updatedReplicas: 2, unavailableReplicas: 2 });
});

test('kubectl describe deployment shows the ReplicaSets, conditions and scaling events', async () => {
  const text = await kubectl.ok(['describe', 'deployment', 'nginx']);
  expect(text).toMatch(/^Name:\s+nginx\n/);
  expect(text).toMatch(/Replicas:\s+3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable\n/);
  expect(text).toMatch(/StrategyType:\s+RollingUpdate\n/);
  expect(text).toMatch(/RollingUpdateStrategy:\s+25% max unavailable, 25% max surge\n/);
  expect(text).toMatch(/Available\s+True\s+MinimumReplicasAvailable\n\s+Progressing\s+True\s+NewReplicaSetAvailable\n/);
  expect(text).toMatch(/OldReplicaSets:\s+<none>\nNewReplicaSet:\s+nginx-5869d7778c \(3\/3 replicas created\)\n/);
  expect(text).toMatch(/Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set nginx-5869d7778c from 0 to 3\n/);
});

test('validation as 1.32 words it: labels not matching the selector, restartPolicy, immutable selector, strategy', async () => {
  const bad = stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bad' },
    spec: { selector: { matchLabels: { app: 'bad' } }, template: { metadata: { labels: { app: 'other' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  const r = await kubectl.run(['create', '-f', '-'], bad);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    'The Deployment "bad" is invalid: \n' +
      '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`\n' +
      '* spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"\n',
  );
  const moved = await kubectl.run(['patch', 'deployment', 'nginx', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}}}}}']);
  expect(moved.stderr).toBe(
    'The Deployment "nginx" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable\n',
  );
  const zero = await kubectl.run(['patch', 'deployment', 'nginx', '--type=merge', '-p', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":0}}}}']);
  expect(zero.stderr).toBe('The Deployment "nginx" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0\n');
  const negative = await kubectl.run(['scale', 'deployment/nginx', '--replicas=-1']);
  expect(negative.code).not.toBe(0);
});

test('@kubernetes/client-node: create, watch until Available, scale through /scale, read the ReplicaSets', async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  const apps = kc.makeApiClient(AppsV1Api);
  // the kubebuilder tutorial's memcached Deployment (restricted security context, command)
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'memcached' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'app.kubernetes.io/name': 'memcached' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'memcached' } },
          spec: {
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'memcached', image: 'memcached:1.6.26-alpine', imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 11211, name: 'memcached' }],
              command: ['memcached', '--memory-limit=64', '-o', 'modern', '-v'],
              securityContext: { runAsNonRoot: true, runAsUser: 1001, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            }],
          },
        },
      },
    },
  });
  const conditions: string[] = [];
  const available = new Promise<void>((resolve, reject) => {
    void new Watch(kc)
      .watch('/apis/apps/v1/namespaces/default/deployments', { fieldSelector: 'metadata.name=memcached' }, (_type, obj: any) => {
        const c = (obj.status?.conditions ?? []).find((x: any) => x.type === 'Available');
        if (c) conditions.push(`${c.status}/${c.reason}`);
        if (c?.status === 'True') resolve();
      }, (err) => (err ? reject(err) : undefined))
      .then((req) => available.finally(() => req.abort()));
  });
  await available;
  expect(conditions[conditions.length - 1]).toBe('True/MinimumReplicasAvailable');

  await apps.patchNamespacedDeploymentScale({ name: 'memcached', namespace: 'default', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });
  await suite.cluster.settle();
  const scale = await apps.readNamespacedDeploymentScale({ name: 'memcached', namespace: 'default' });
  expect(scale.spec!.replicas).toBe(3);
  expect(scale.status).toEqual({ replicas: 3, selector: 'app.kubernetes.io/name=memcached' });
  const rsList = await apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: 'app.kubernetes.io/name=memcached' });
  expect(rsList.items).toHaveLength(1);
  const rs = rsList.items[0]!;
  expect(rs.spec!.replicas).toBe(3);
  expect(rs.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
  expect(rs.metadata!.annotations).toMatchObject({ 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
  expect(rs.spec!.template!.spec!.containers[0]!.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1001, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
});

test('deleting a Deployment removes its ReplicaSets and pods, in the background or in the foreground', async () => {
  expect((await replicaSetsOf('prop')).length).toBeGreaterThan(0);
  await kubectl.ok(['delete', 'deployment', 'prop']);
  await suite.cluster.settle();
  expect(await replicaSetsOf('prop')).toEqual([]);
  expect((await getJson(['get', 'pods', '-l', 'app=prop'])).items).toEqual([]);

  expect((await getJson(['get', 'pods', '-l', 'app=nginx'])).items).toHaveLength(3);
  const r = await withClockRunning(kubectl.run(['delete', 'deployment', 'nginx', '--cascade=foreground', '--timeout=60s']));
  expect(r.stdout).toBe('deployment.apps "nginx" deleted\n');
  expect(await replicaSetsOf('nginx')).toEqual([]);
  expect((await getJson(['get', 'pods', '-l', 'app=nginx'])).items).toEqual([]);
});
