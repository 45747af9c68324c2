/** The v1.32 schema catalogue: names, reachability, descriptions and enums, and one schema per served built-in kind. */
import { customResourceDefinitions } from '../crd/crd-kind.js';
import { reviewKinds } from '../http/review-apis.js';
import { admissionKinds } from '../registry/builtin/admission-kinds.js';
import { batchKinds } from '../registry/builtin/batch-kinds.js';
import { coreKinds } from '../registry/builtin/core-kinds.js';
import { coreEvents, newEvents } from '../registry/builtin/event-kinds.js';
import { otherKinds } from '../registry/builtin/other-kinds.js';
import { builtinDefinition, definitionName, reachableDefinitions } from './builtin-schemas.js';

test('every definition name maps as kube-apiserver names them', () => {
  expect(definitionName('', 'v1', 'Pod')).toBe('io.k8s.api.core.v1.Pod');
  expect(definitionName('rbac.authorization.k8s.io', 'v1', 'Role')).toBe('io.k8s.api.rbac.v1.Role');
  expect(definitionName('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition')).toBe('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
});

test('the Job schema reaches containers, ports and ObjectMeta with descriptions and required fields', () => {
  const names = reachableDefinitions(builtinDefinition('io.k8s.api.batch.v1.Job')!);
  for (const n of ['io.k8s.api.batch.v1.JobSpec', 'io.k8s.api.core.v1.Container', 'io.k8s.api.core.v1.ContainerPort', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']) {
    expect(names).toContain(n);
  }
  const port = builtinDefinition('io.k8s.api.core.v1.ContainerPort')!;
  expect(port.required).toEqual(['containerPort']);
  expect(port.properties!.containerPort).toMatchObject({ type: 'integer', format: 'int32' });
  expect(port.properties!.containerPort.description).toContain("Number of port to expose on the pod's IP address.");
});

test('descriptions keep their paragraphs and string fields their enums where the upstream text is known', () => {
  const jobSpec = builtinDefinition('io.k8s.api.batch.v1.JobSpec')!;
  expect(jobSpec.properties!.completionMode.enum).toEqual(['Indexed', 'NonIndexed']);
  expect(jobSpec.properties!.completionMode.description).toContain('or `Indexed`.\n\n`NonIndexed` means');
  const rule = builtinDefinition('io.k8s.api.admissionregistration.v1.RuleWithOperations')!;
  expect(rule.properties!.operations.items).toEqual({ type: 'string', enum: ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'] });
});

test('every reference in the catalogue resolves', () => {
  const seen = reachableDefinitions({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Pod' }] });
  const refs = JSON.stringify([...seen].map((n) => builtinDefinition(n))).match(/#\/components\/schemas\/[\w.-]+/g) ?? [];
  for (const ref of refs) expect(builtinDefinition(ref.slice('#/components/schemas/'.length))).toBeDefined();
});

test('every built-in kind the cluster serves has its full schema (decoding and OpenAPI use it)', () => {
  const served = [...coreKinds, coreEvents, newEvents, ...batchKinds, ...otherKinds, ...admissionKinds, ...reviewKinds, customResourceDefinitions];
  for (const rt of served) {
    const name = definitionName(rt.group, rt.version, rt.kind);
    expect([name, builtinDefinition(name) !== undefined]).toEqual([name, true]);
    expect(rt.openAPISchema()).toBe(builtinDefinition(name));
  }
});
