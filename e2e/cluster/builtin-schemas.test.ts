/**
 * Full Kubernetes v1.32 schemas for the built-in kinds, through the real kubectl 1.32 and client-node:
 * explain at depth and --recursive, unknown nested fields under each fieldValidation mode
 * (Strict/Warn/Ignore), wrong JSON types answered with the API server's decoding errors, and dropped
 * unknown fields never stored.
 */
import * as k8s from '@kubernetes/client-node';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const job = (name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', ...container }] } } },
});

test('explain reaches nested fields of built-in kinds', async () => {
  const ports = await kubectl.ok(['explain', 'job.spec.template.spec.containers.ports']);
  expect(ports).toContain('KIND:       Job');
  expect(ports).toMatch(/FIELD: ports <\[\]ContainerPort>/);
  expect(ports).toMatch(/containerPort\s+<integer> -required-/);
  expect(ports).toContain("Number of port to expose on the pod's IP address.");
  expect(ports).toMatch(/protocol\s+<string>/);

  const pull = await kubectl.ok(['explain', 'job.spec.template.spec.containers.imagePullPolicy']);
  expect(pull).toMatch(/FIELD: imagePullPolicy <string>\nENUM:\n\s+Always\n\s+IfNotPresent\n\s+Never\n/);
  expect(pull).toMatch(/Possible enum values:\n\s+- `"Always"` means that kubelet always attempts to pull the latest image\./);

  const limits = await kubectl.ok(['explain', 'cronjob.spec.jobTemplate.spec.template.spec.containers.resources']);
  expect(limits).toMatch(/limits\s+<map\[string\]Quantity>/);

  const subjects = await kubectl.ok(['explain', 'rolebinding.subjects']);
  expect(subjects).toContain('GROUP:      rbac.authorization.k8s.io');
  expect(subjects).toMatch(/kind\s+<string> -required-/);

  const lease = await kubectl.ok(['explain', 'lease.spec.renewTime']);
  expect(lease).toMatch(/FIELD: renewTime <string>/);

  const strategy = await kubectl.ok(['explain', 'deployment.spec.strategy.rollingUpdate.maxSurge']);
  expect(strategy).toMatch(/FIELD: maxSurge <IntOrString>/);

  const crd = await kubectl.ok(['explain', 'crd.spec.versions.schema']);
  expect(crd).toMatch(/openAPIV3Schema\s+<JSONSchemaProps>/);

  const review = await kubectl.ok(['explain', 'selfsubjectaccessreview.spec.resourceAttributes.fieldSelector']);
  expect(review).toContain('GROUP:      authorization.k8s.io');
  expect(review).toMatch(/requirements\s+<\[\]FieldSelectorRequirement>/);

  const webhook = await kubectl.ok(['explain', 'validatingwebhookconfiguration.webhooks.clientConfig.service']);
  expect(webhook).toMatch(/FIELD: service <ServiceReference>/);
  expect(webhook).toMatch(/namespace\s+<string> -required-/);
});

test('explain --recursive prints the whole tree of a built-in kind', async () => {
  const out = await kubectl.ok(['explain', 'pod.spec.containers', '--recursive']);
  expect(out).toMatch(/^\s+livenessProbe\s+<Probe>$/m);
  expect(out).toMatch(/^\s+httpGet\s+<HTTPGetAction>$/m);
  expect(out).toMatch(/^\s+port\s+<IntOrString> -required-$/m);
  expect(out).toMatch(/^\s+divisor\s+<Quantity>$/m);
  expect(out).toMatch(/^\s+securityContext\s+<SecurityContext>$/m);
  // JSONSchemaProps refers to itself: kubectl stops at the repeated definition as on a real cluster
  const crd = await kubectl.ok(['explain', 'crd.spec.versions.schema.openAPIV3Schema', '--recursive']);
  expect(crd).toMatch(/^\s+x-kubernetes-validations\s+<\[\]ValidationRule>$/m);
});

test('--validate=strict refuses an unknown nested field with the real message; nothing is stored', async () => {
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(job('strict', { foo: 1, ports: [{ containerPort: 80, bar: true }] })));
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain(
    'Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.template.spec.containers[0].foo", unknown field "spec.template.spec.containers[0].ports[0].bar"',
  );
  expect((await kubectl.run(['get', 'job', 'strict'])).stderr).toContain('NotFound');
});

test('--validate=warn keeps the object, warns per field and drops the fields', async () => {
  const r = await kubectl.run(['create', '--validate=warn', '-f', '-'], JSON.stringify(job('warned', { foo: 1 }, { extra: 'x' })));
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('Warning: unknown field "spec.extra"');
  expect(r.stderr).toContain('Warning: unknown field "spec.template.spec.containers[0].foo"');
  const stored = await suite.getJson(['get', 'job', 'warned']);
  expect(stored.spec.extra).toBeUndefined();
  expect(stored.spec.template.spec.containers[0].foo).toBeUndefined();
  expect(stored.spec.template.spec.containers[0].image).toBe('busybox');
});

test('--validate=false (Ignore) drops unknown fields silently', async () => {
  const cm = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ignored', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: 1 }, nope: {} } }] } };
  const r = await kubectl.run(['apply', '--validate=false', '-f', '-'], JSON.stringify(cm));
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain('unknown field');
  const stored = await suite.getJson(['get', 'pod', 'ignored']);
  // `nope` is dropped; requests default to the limits (SetDefaults_Pod)
  expect(stored.spec.containers[0].resources).toEqual({ limits: { cpu: 1 }, requests: { cpu: 1 } });
});

test('a wrong JSON type inside a built-in object is refused with the decoder message', async () => {
  const parallelism = await kubectl.run(['create', '-f', '-'], JSON.stringify(job('typed', {}, { parallelism: 'x' })));
  expect(parallelism.stderr).toContain(
    'Job in version "v1" cannot be handled as a Job: json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32',
  );
  const ports = await kubectl.run(['create', '--validate=false', '-f', '-'], JSON.stringify(job('typed', { ports: 5 })));
  expect(ports.stderr).toContain('json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.ports of type []v1.ContainerPort');
  const label = await kubectl.run(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'l', labels: { a: true } } }));
  expect(label.stderr).toContain('json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string');
  expect((await kubectl.run(['get', 'job', 'typed'])).stderr).toContain('NotFound');
});

test('kubectl patch (no fieldValidation: Warn) warns about an unknown nested field and drops it; a wrong type is 422', async () => {
  await kubectl.ok(['create', 'configmap', 'patched', '--from-literal=a=b']);
  const wrong = await kubectl.run(['patch', 'configmap', 'patched', '--type=merge', '-p', '{"data":{"a":1}}']);
  expect(wrong.stderr).toContain('json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  expect(wrong.stderr).toContain('The request is invalid: patch: Invalid value');
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'held' }, spec: { holderIdentity: 'a' } }));
  const unknown = await kubectl.run(['patch', 'lease', 'held', '--type=merge', '-p', '{"spec":{"leaseDurationSeconds":15,"nope":{"deeper":1}}}']);
  expect(unknown.code).toBe(0);
  expect(unknown.stderr).toContain('Warning: unknown field "spec.nope"');
  const lease = await suite.getJson(['get', 'lease', 'held']);
  expect(lease.spec).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 15 });
  const stored = await suite.getJson(['get', 'configmap', 'patched']);
  expect(stored.data).toEqual({ a: 'b' });
});

describe('through client-node', () => {
  let objects: k8s.CustomObjectsApi;
  let batch: k8s.BatchV1Api;
  beforeAll(() => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(suite.cluster.kubeconfigPath);
    objects = kc.makeApiClient(k8s.CustomObjectsApi);
    batch = kc.makeApiClient(k8s.BatchV1Api);
  });

  const deployment = (name: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', foo: 'x', ports: [{ containerPort: 80, bar: 1 }] }] } },
    },
  });
  const create = (name: string, fieldValidation?: string) =>
    objects.createNamespacedCustomObjectWithHttpInfo({ group: 'apps', version: 'v1', namespace: 'default', plural: 'deployments', body: deployment(name), fieldValidation });
  const stored = (name: string) => objects.getNamespacedCustomObject({ group: 'apps', version: 'v1', namespace: 'default', plural: 'deployments', name });

  test('Warn (the default) answers a Warning header per unknown field and stores without them', async () => {
    const res = await create('warned');
    expect(res.httpStatusCode).toBe(201);
    expect(res.headers.warning).toContain('299 - "unknown field \\"spec.template.spec.containers[0].foo\\""');
    expect(res.headers.warning).toContain('unknown field \\"spec.template.spec.containers[0].ports[0].bar\\"');
    const got = await stored('warned');
    expect(got.spec.template.spec.containers[0]).toMatchObject({ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] });
    expect(got.spec.template.spec.containers[0].foo).toBeUndefined();
    expect(got.spec.template.spec.containers[0].ports[0].bar).toBeUndefined();
  });

  test('Strict refuses with 400 and the strict decoding error', async () => {
    const err = (await create('strict', 'Strict').catch((e: unknown) => e)) as { code: number; body: string };
    expect(err.code).toBe(400);
    expect(JSON.parse(err.body).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].foo", unknown field "spec.template.spec.containers[0].ports[0].bar"',
    );
  });

  test('Ignore stores without the unknown fields and without warnings', async () => {
    const res = await create('ignored', 'Ignore');
    expect(res.httpStatusCode).toBe(201);
    expect(res.headers.warning).toBeUndefined();
    expect((await stored('ignored')).spec.template.spec.containers[0].foo).toBeUndefined();
  });

  test('a typed client sending a wrong type gets the decoder message whatever fieldValidation says', async () => {
    const body = { metadata: { name: 'typed' }, spec: { backoffLimit: 1.5, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } } as unknown as k8s.V1Job;
    const err = (await batch.createNamespacedJob({ namespace: 'default', body, fieldValidation: 'Ignore' }).catch((e: unknown) => e)) as { code: number; body: string };
    expect(err.code).toBe(400);
    expect(JSON.parse(err.body)).toMatchObject({
      reason: 'BadRequest',
      message: 'Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number 1.5 into Go struct field JobSpec.spec.backoffLimit of type int32',
    });
  });
});
