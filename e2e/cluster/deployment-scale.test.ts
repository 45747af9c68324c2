/**
 * apps/v1 Deployments' `/scale` subresource as a 1.32 server serves it, through real kubectl: discovery
 * lists `deployments/scale` (autoscaling/v1 Scale), `kubectl scale` and `get --raw` go through it, the
 * selector shows as a label-selector string, and server-side apply of a Scale owns spec.replicas under
 * subresource "scale".
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

// the deployment controller would write status.replicas itself: this file checks what /scale reads and writes
const suite = useClusterSuite({ controllers: { deployment: false } });
const kubectl = suite.kubectl;

const deployment = (name: string, replicas: number): string =>
  stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
      template: { metadata: { labels: { app: name, tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  });
const scalePath = (name: string): string => `/apis/apps/v1/namespaces/default/deployments/${name}/scale`;
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args, true);
const entry = (o: any, manager: string): any => o.metadata.managedFields.find((e: any) => e.manager === manager);
const applyScale = (name: string, replicas: number, query: string) =>
  suite.call('PATCH', `${scalePath(name)}?${query}`, stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name }, spec: { replicas } }), {
    'Content-Type': 'application/apply-patch+yaml',
  });

test('discovery lists deployments/scale as an autoscaling/v1 Scale, legacy and aggregated', async () => {
  const legacy = JSON.parse(await kubectl.ok(['get', '--raw', '/apis/apps/v1']));
  expect(legacy.resources).toContainEqual({ name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  expect(legacy.resources).toContainEqual(expect.objectContaining({ name: 'deployments/status', kind: 'Deployment' }));

  const aggregated = await suite.call('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  const apps = JSON.parse(aggregated.text).items.find((g: any) => g.metadata.name === 'apps');
  const deployments = apps.versions[0].resources.find((r: any) => r.resource === 'deployments');
  expect(deployments.subresources).toEqual([
    { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
    { subresource: 'status', responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
  ]);
});

test('kubectl scale deployment writes spec.replicas through /scale; get --raw shows the Scale', async () => {
  await kubectl.ok(['apply', '-f', '-'], deployment('web', 1));
  const before = await getJson(['get', 'deployment', 'web']);
  expect(await kubectl.ok(['scale', 'deployment/web', '--replicas=3'])).toContain('deployment.apps/web scaled');

  const scale = JSON.parse(await kubectl.ok(['get', '--raw', scalePath('web')]));
  const web = await getJson(['get', 'deployment', 'web']);
  expect(scale).toEqual({
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: 'web', namespace: 'default', uid: web.metadata.uid, resourceVersion: web.metadata.resourceVersion, creationTimestamp: web.metadata.creationTimestamp },
    spec: { replicas: 3 },
    status: { replicas: 0, selector: 'app=web,tier in (web)' },
  });
  expect(web.spec.replicas).toBe(3);
  expect(web.metadata.generation).toBe(before.metadata.generation + 1);
  // kubectl's default field manager is its binary name (the runner may call kubectl.1.32 directly)
  const scaleWrites = web.metadata.managedFields.filter((e: any) => e.subresource === 'scale');
  expect(scaleWrites).toEqual([expect.objectContaining({ operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } })]);
  expect(scaleWrites[0].manager).toMatch(/^kubectl/);
  // replicas changed hands: the client-side applier no longer owns it
  expect(entry(web, 'kubectl-client-side-apply').fieldsV1['f:spec']['f:replicas']).toBeUndefined();

  // status.replicas comes from the Deployment's status
  await kubectl.ok(['patch', 'deployment', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":2}}']);
  expect(JSON.parse(await kubectl.ok(['get', '--raw', scalePath('web')])).status).toEqual({ replicas: 2, selector: 'app=web,tier in (web)' });
});

test('kubectl patch --subresource=scale, and an update (PUT) of the Scale', async () => {
  await kubectl.ok(['patch', 'deployment', 'web', '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":5}}']);
  expect((await getJson(['get', 'deployment', 'web'])).spec.replicas).toBe(5);
  const scale = JSON.parse(await kubectl.ok(['get', 'deployment', 'web', '--subresource=scale', '-o', 'json']));
  expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 5 } });
  const put = JSON.parse(await kubectl.ok(['replace', '--raw', scalePath('web'), '-f', '-'], JSON.stringify({ ...scale, spec: { replicas: 4 } })));
  expect(put).toMatchObject({ kind: 'Scale', spec: { replicas: 4 } });
  expect((await getJson(['get', 'deployment', 'web'])).spec.replicas).toBe(4);
  // a stale resourceVersion is a conflict, as on the Deployment itself
  const stale = await kubectl.run(['replace', '--raw', scalePath('web'), '-f', '-'], JSON.stringify({ ...scale, spec: { replicas: 6 } }));
  expect(stale.code).not.toBe(0);
  expect(stale.stderr).toContain('Operation cannot be fulfilled on deployments.apps "web": the object has been modified');
});

test('a negative replicas count is refused as an invalid Scale', async () => {
  const r = await kubectl.run(['patch', 'deployment', 'web', '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":-1}}']);
  expect(r.code).not.toBe(0);
  // kubectl renders an Invalid status from its details: kind Scale, the cause's field and message
  expect(r.stderr).toContain('The Scale "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  const raw = await suite.call('PATCH', scalePath('web'), { spec: { replicas: -1 } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(raw.code).toBe(422);
  expect(JSON.parse(raw.text)).toMatchObject({
    reason: 'Invalid',
    message: 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    details: { name: 'web', group: 'autoscaling', kind: 'Scale', causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }] },
  });
  expect((await getJson(['get', 'deployment', 'web'])).spec.replicas).toBe(4);
  // and on the Deployment itself
  const direct = await kubectl.run(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":-1}}']);
  expect(direct.stderr).toContain('The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
});

test('server-side apply of a Scale owns spec.replicas under subresource "scale" and conflicts with its other owners', async () => {
  expect((await kubectl.run(['apply', '--server-side', '--field-manager=deployer', '-f', '-'], deployment('api', 2))).code).toBe(0);

  const conflict = await applyScale('api', 5, 'fieldManager=autoscaler');
  expect(conflict.code).toBe(409);
  expect(JSON.parse(conflict.text).message).toBe('Apply failed with 1 conflict: conflict with "deployer": .spec.replicas');

  const forced = await applyScale('api', 5, 'fieldManager=autoscaler&force=true');
  expect(forced.code).toBe(200);
  expect(JSON.parse(forced.text)).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, status: { selector: 'app=api,tier in (web)' } });
  const api = await getJson(['get', 'deployment', 'api']);
  expect(api.spec.replicas).toBe(5);
  expect(entry(api, 'autoscaler')).toMatchObject({ operation: 'Apply', subresource: 'scale', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  expect(entry(api, 'deployer').fieldsV1['f:spec']['f:replicas']).toBeUndefined();

  // the Deployment's applier now conflicts with the scale owner, named with its subresource
  const back = await kubectl.run(['apply', '--server-side', '--field-manager=deployer', '-f', '-'], deployment('api', 2));
  expect(back.stderr).toContain('conflict with "autoscaler" with subresource "scale": .spec.replicas');
  expect((await applyScale('api', 6, 'fieldManager=autoscaler')).code).toBe(200);
  expect((await applyScale('api', -2, 'fieldManager=autoscaler')).code).toBe(422);

  // kubectl apply --subresource=scale sends the file's Deployment, which the scale endpoint refuses as 1.32 does
  const wrongVersion = await kubectl.run(['apply', '--server-side', '--subresource=scale', '--field-manager=autoscaler', '-f', '-'], deployment('api', 7));
  expect(wrongVersion.stderr).toContain('Error from server (BadRequest): Incorrect version specified in apply patch. Specified patch version: apps/v1, expected: autoscaling/v1');
  expect((await getJson(['get', 'deployment', 'api'])).spec.replicas).toBe(6);
});

test('RBAC authorizes deployments/scale as its own resource: view reads it, edit scales', async () => {
  await kubectl.ok(['create', 'rolebinding', 'viewers', '--clusterrole=view', '--user=viewer', '-n', 'default']);
  await kubectl.ok(['create', 'rolebinding', 'editors', '--clusterrole=edit', '--user=editor', '-n', 'default']);
  await suite.cluster.settle();
  const viewer = suite.kubectlAs('viewer');
  expect(JSON.parse(await viewer.ok(['get', 'deployment', 'web', '--subresource=scale', '-o', 'json'])).kind).toBe('Scale');
  const refused = await viewer.run(['scale', 'deployment/web', '--replicas=2']);
  expect(refused.stderr).toContain('deployments.apps "web" is forbidden: User "viewer" cannot patch resource "deployments/scale" in API group "apps" in the namespace "default"');
  expect(await suite.kubectlAs('editor').ok(['scale', 'deployment/web', '--replicas=2'])).toContain('deployment.apps/web scaled');
  expect((await getJson(['get', 'deployment', 'web'])).spec.replicas).toBe(2);
});
