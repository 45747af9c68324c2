/** Merge semantics read from the built-in schemas: list types per kind, map types, patch strategies, undeclared fields. */
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { builtinListSemanticsFor } from '../patch/field-sets.js';
import { builtinRootDefinition, firstUndeclaredField, listTypeAt, mapTypeAt, patchStrategyAt, schemaAt } from './merge-semantics.js';

const pod = 'io.k8s.api.core.v1.Pod';
const service = 'io.k8s.api.core.v1.Service';

test('kinds are found by apiVersion and kind, only when served with that group-version', () => {
  expect(builtinRootDefinition('apps/v1', 'Deployment')).toBe('io.k8s.api.apps.v1.Deployment');
  expect(builtinRootDefinition('v1', 'Service')).toBe(service);
  expect(builtinRootDefinition('rbac.authorization.k8s.io/v1', 'ClusterRole')).toBe('io.k8s.api.rbac.v1.ClusterRole');
  expect(builtinRootDefinition('apps/v1beta1', 'Deployment')).toBeUndefined();
  expect(builtinRootDefinition('example.com/v1', 'Widget')).toBeUndefined();
  expect(builtinRootDefinition('v1', 'PodSpec')).toBeUndefined();
});

test('list types and keys come from the schema of the kind at hand, through references and list items', () => {
  expect(listTypeAt(service, ['spec', 'ports'])).toEqual({ keys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } });
  expect(listTypeAt(pod, ['spec', 'containers', 'ports'])).toEqual({ keys: ['containerPort', 'protocol'], keyDefaults: { protocol: 'TCP' } });
  expect(listTypeAt(pod, ['spec', 'containers', 'env'])).toEqual({ keys: ['name'], keyDefaults: {} });
  expect(listTypeAt('io.k8s.api.apps.v1.Deployment', ['spec', 'template', 'spec', 'volumes'])).toEqual({ keys: ['name'], keyDefaults: {} });
  // the same field name, different kinds: a Job's conditions are atomic, a Deployment's keyed by type
  expect(listTypeAt('io.k8s.api.batch.v1.Job', ['status', 'conditions'])).toBe('atomic');
  expect(listTypeAt('io.k8s.api.apps.v1.Deployment', ['status', 'conditions'])).toEqual({ keys: ['type'], keyDefaults: {} });
  expect(listTypeAt(pod, ['spec', 'imagePullSecrets'])).toEqual({ keys: ['name'], keyDefaults: { name: '' } });
  expect(listTypeAt(pod, ['metadata', 'finalizers'])).toBe('set');
  expect(listTypeAt(pod, ['spec', 'tolerations'])).toBe('atomic');
  expect(listTypeAt(pod, ['spec', 'nope'])).toBeUndefined();
});

test('atomic maps and structs: on the field or on its type', () => {
  expect(mapTypeAt(service, ['spec', 'selector'])).toBe('atomic');
  expect(mapTypeAt('io.k8s.api.apps.v1.Deployment', ['spec', 'selector'])).toBe('atomic');
  expect(mapTypeAt(pod, ['spec', 'nodeSelector'])).toBe('atomic');
  expect(mapTypeAt(pod, ['metadata', 'labels'])).toBe('granular');
  expect(mapTypeAt(pod, ['spec', 'containers', 'env', 'valueFrom', 'secretKeyRef'])).toBe('atomic');
  expect(mapTypeAt(pod, ['spec', 'containers', 'resources'])).toBe('granular');
});

test('patch strategies and merge keys', () => {
  expect(patchStrategyAt(pod, ['spec', 'volumes'])).toEqual({ strategies: ['merge', 'retainKeys'], mergeKey: 'name' });
  expect(patchStrategyAt(service, ['spec', 'ports'])).toEqual({ strategies: ['merge'], mergeKey: 'port' });
  expect(patchStrategyAt(pod, ['spec', 'containers', 'ports'])).toEqual({ strategies: ['merge'], mergeKey: 'containerPort' });
  expect(patchStrategyAt('io.k8s.api.apps.v1.Deployment', ['spec', 'strategy'])).toEqual({ strategies: ['retainKeys'] });
  expect(patchStrategyAt(pod, ['spec', 'tolerations'])).toEqual({ strategies: [] });
  expect(schemaAt(pod, ['metadata', 'labels', 'any-key'])).toMatchObject({ type: 'string' });
});

test('the first undeclared field is named by its path, list items by their keys', () => {
  const deployment = 'io.k8s.api.apps.v1.Deployment';
  const base = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { free: 'form' }, annotations: { a: 'b' } } };
  expect(firstUndeclaredField(deployment, { ...base, spec: { replicas: 1 } })).toBeUndefined();
  expect(firstUndeclaredField(deployment, { ...base, spec: { foo: 1 } })).toBe('.spec.foo');
  expect(firstUndeclaredField(deployment, { ...base, spec: { template: { spec: { containers: [{ name: 'c', image: 'x', bogus: true }] } } } }))
    .toBe('.spec.template.spec.containers[name="c"].bogus');
  expect(firstUndeclaredField(deployment, { ...base, spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP', x: 1 }] }] } } } }))
    .toBe('.spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].x');
  expect(firstUndeclaredField(deployment, { ...base, spec: { template: { spec: { tolerations: [{ key: 'k', extra: 1 }] } } } })).toBe('.spec.template.spec.tolerations[0].extra');
  expect(firstUndeclaredField(deployment, { ...base, metadata: { name: 'd', nope: 1 } })).toBe('.metadata.nope');
  // values typed Quantity or IntOrString, and free-form fields, hold anything
  expect(firstUndeclaredField(pod, { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } }, ports: [] }] } })).toBeUndefined();
});

test('strategic merge follows the kind: Service ports by port, pod ports by containerPort, podCIDRs as a set', () => {
  const svc = { apiVersion: 'v1', kind: 'Service', spec: { ports: [{ port: 80, targetPort: 8080 }] } };
  expect((applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } }) as any).spec.ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  const p = { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'a' }] }] } };
  const out = applyStrategicMergePatch(p, { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'b' }, { containerPort: 81 }] }] } }) as any;
  expect(out.spec.containers[0].ports).toEqual([{ containerPort: 80, name: 'b' }, { containerPort: 81 }]);
  const node = { apiVersion: 'v1', kind: 'Node', spec: { podCIDRs: ['10.0.0.0/24'] } };
  expect((applyStrategicMergePatch(node, { spec: { podCIDRs: ['10.0.1.0/24'] } }) as any).spec.podCIDRs).toEqual(['10.0.0.0/24', '10.0.1.0/24']);
});

test('field-set resolvers per kind agree with the schema', () => {
  const job = builtinListSemanticsFor('batch/v1', 'Job')!;
  expect(job(['status', 'conditions'])).toBe('atomic');
  expect(job(['spec', 'template', 'spec', 'containers'])).toEqual({ keys: ['name'] });
  expect(job.mapType?.(['spec', 'selector'])).toBe('atomic');
  expect(builtinListSemanticsFor('example.com/v1', 'Widget')).toBeUndefined();
});
