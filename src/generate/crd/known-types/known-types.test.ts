// The known-Kubernetes-types catalogue, rendered from Kubernetes' own 1.32 definitions: every definition the
// local cluster serves resolves to a key and a structural schema, in controller-gen's forms (inline, int-or-string,
// Quantity, nested ObjectMeta, list and map types, defaults) and without what controller-gen does not emit.
import { readFileSync } from 'node:fs';
import { BUILTIN_DEFINITION_SOURCES } from '../../../cluster/schemas/builtin-definitions.generated.js';
import type { Schema } from '../schema.js';
import { checkStructuralSchema } from '../structural.js';
import { keyOfDefinition } from './definition-names.js';
import { knownType, knownTypeKeys } from './index.js';

/** Every keyword used anywhere in a schema tree (property names excluded). */
function keywordsOf(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => keywordsOf(item, into));
  else if (node && typeof node === 'object')
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === 'properties') Object.values(value as object).forEach((child) => keywordsOf(child, into));
      else if (keyword !== 'default' && keyword !== 'example') {
        into.add(keyword);
        keywordsOf(value, into);
      }
    }
  return into;
}

/**
 * Types whose controller-gen schema the API server refuses in a CRD, exactly as it would refuse
 * controller-gen's: ServiceAccount.secrets is a list-type map keyed by ObjectReference.name, which is optional.
 */
const NOT_STRUCTURAL: Record<string, string> = {
  'core/v1.ServiceAccount': 'must be required or have a default (x-kubernetes-list-map-keys)',
};

describe('known types catalogue', () => {
  const servedDefinitions = Object.keys(BUILTIN_DEFINITION_SOURCES);

  it('has a key for every definition the local cluster serves, and renders each', () => {
    expect(servedDefinitions.length).toBeGreaterThan(400);
    const unresolved = servedDefinitions.filter((name) => {
      const key = keyOfDefinition(name);
      return key === undefined || knownType(key) === undefined;
    });
    expect(unresolved).toEqual([]);
    expect(knownTypeKeys().length).toBeGreaterThanOrEqual(servedDefinitions.length);
  });

  it('resolves every meta/v1 type, also those the served definitions do not reach (Status, APIResource, WatchEvent, ...)', () => {
    const declared = [...readFileSync(new URL('../../../../node_modules/kubernetes-types/meta/v1.d.ts', import.meta.url), 'utf8').matchAll(/^export interface (\w+)/gm)].map((m) => m[1]!);
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((name) => knownType(`meta/v1.${name}`) === undefined)).toEqual([]);
    expect(knownType('meta/v1.Status')!.schema.properties!.code).toMatchObject({ type: 'integer', format: 'int32' });
    expect(knownType('meta/v1.WatchEvent')!.schema.properties!.object).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('covers every group the cluster serves, meta/v1, Quantity and IntOrString', () => {
    const groups = new Set(knownTypeKeys().map((key) => key.split('.')[0]));
    for (const group of ['core/v1', 'apps/v1', 'batch/v1', 'networking/v1', 'rbac/v1', 'storage/v1', 'policy/v1', 'autoscaling/v2',
      'admissionregistration/v1', 'apiextensions/v1', 'apiregistration/v1', 'coordination/v1', 'discovery/v1', 'flowcontrol/v1',
      'meta/v1', 'api/resource', 'util/intstr'])
      expect(groups).toContain(group);
  });

  it('renders every key as a structural schema (the exceptions fail as the API server would fail them)', () => {
    const keys = knownTypeKeys();
    expect(keys.length).toBeGreaterThan(400);
    const failures: Record<string, string> = {};
    for (const key of keys) {
      const errors = checkStructuralSchema({ type: 'object', properties: { value: knownType(key)!.schema } } as never);
      if (errors.length > 0) failures[key] = errors.map((e) => e.message).join('; ');
    }
    expect(failures).toEqual(NOT_STRUCTURAL);
  });

  it('keeps none of what controller-gen does not emit: references, patch strategies, GVKs, enums from +enum, doubles', () => {
    const used = new Set<string>();
    for (const key of knownTypeKeys()) keywordsOf(knownType(key)!.schema, used);
    expect(used).toContain('x-kubernetes-list-map-keys');
    for (const keyword of ['$ref', 'allOf', 'oneOf', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key', 'x-kubernetes-group-version-kind'])
      expect(used).not.toContain(keyword);
    for (const key of knownTypeKeys()) expect(JSON.stringify(knownType(key)!.schema)).not.toContain('"format":"double"');
    const withEnumLists = knownTypeKeys().filter((key) => JSON.stringify(knownType(key)).includes('Possible enum values'));
    expect(withEnumLists).toEqual([]);
    expect(knownType('core/v1.Taint')!.schema.properties!.effect).toEqual({
      description: 'Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.',
      type: 'string',
    });
    // metav1.Condition's +kubebuilder:validation:Enum is the one enum controller-gen carries.
    const enums = new Set<string>();
    const collectEnums = (node: Schema): void => {
      if (node.enum) enums.add(JSON.stringify(node.enum));
      for (const child of [...Object.values(node.properties ?? {}), node.items, node.additionalProperties])
        if (child && typeof child === 'object') collectEnums(child);
    };
    for (const key of knownTypeKeys()) collectEnums(knownType(key)!.schema);
    expect([...enums]).toEqual(['["True","False","Unknown"]']);
  });

  it('renders Quantity, IntOrString, nested ObjectMeta and RawExtension in controller-gen forms', () => {
    const limits = knownType('core/v1.ResourceRequirements')!.schema.properties!.limits!;
    expect(limits.additionalProperties).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      pattern: expect.stringMatching(/^\^\(\\\+\|-\)\?/),
      'x-kubernetes-int-or-string': true,
    });
    expect(knownType('core/v1.HTTPGetAction')!.schema.properties!.port).toEqual({
      description: expect.stringMatching(/^Name or number of the port/),
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    const template = knownType('core/v1.PodTemplateSpec')!.schema;
    expect(template.properties!.metadata).toEqual({ description: expect.stringMatching(/^Standard object's metadata/), type: 'object' });
    const embedded = knownType('core/v1.PodTemplateSpec', { generateEmbeddedObjectMeta: true })!.schema;
    expect(Object.keys(embedded.properties!.metadata!.properties!).sort()).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
    expect(knownType('apps/v1.ControllerRevision')!.schema.properties!.data).toEqual({
      description: 'Data is the serialized representation of the state.',
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('carries list types, map types, required fields, +default values and Protocol\'s TCP default', () => {
    const container = knownType('core/v1.Container')!.schema;
    expect(container.required).toEqual(['name']);
    expect(container.properties!.ports).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'] });
    expect(container.properties!.ports!.items!.properties!.protocol).toMatchObject({ default: 'TCP', type: 'string' });
    expect(knownType('networking/v1.NetworkPolicyPort')!.schema.properties!.protocol).toMatchObject({ default: 'TCP' });
    expect(knownType('core/v1.LocalObjectReference')!.schema).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(knownType('core/v1.LocalObjectReference')!.schema.properties!.name).toMatchObject({ default: '' });
    expect(knownType('core/v1.ConfigMapEnvSource')!.schema).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(knownType('admissionregistration/v1.MatchResources')!.schema).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(knownType('core/v1.RBDVolumeSource')!.schema.properties!.pool).toMatchObject({ default: 'rbd' });
    const condition = knownType('meta/v1.Condition')!.schema;
    expect(condition.required).toEqual(['lastTransitionTime', 'message', 'reason', 'status', 'type']);
    expect(condition.properties!.reason).toMatchObject({ maxLength: 1024, minLength: 1 });
  });

  it('gives array items and fields without a doc the doc of their type, and a field its own doc', () => {
    const jobTemplate = knownType('batch/v1.JobTemplateSpec')!;
    expect(jobTemplate.description).toBe('JobTemplateSpec describes the data a Job should have when created from a template');
    const template = jobTemplate.schema.properties!.spec!.properties!.template!;
    expect(template.description).toMatch(/^Describes the pod that will be created when executing a job/);
    const containers = template.properties!.spec!.properties!.containers!;
    expect(containers.items!.description).toBe('A single application container that you want to run within a pod.');
    expect((knownType('core/v1.Capabilities')!.schema.properties!.add!.items as Schema).description).toBe('Capability represent POSIX capabilities type');
    // Field docs the definitions lost come back (from kubernetes-types' text of the same field).
    expect(knownType('core/v1.Pod')!.schema.properties!.metadata!.description).toMatch(/^Standard object's metadata\. More info/);
    expect(knownType('core/v1.Event')!.schema.properties!.involvedObject!.description).toBe('The object that this event is about.');
    const pvc = knownType('core/v1.PersistentVolumeClaim')!.schema;
    expect(pvc.properties!.status!.properties!.capacity!.additionalProperties).toMatchObject({ 'x-kubernetes-int-or-string': true });
  });

  it('knows the named Go types OpenAPI has no definition for, with the Go type doc where there is one', () => {
    expect(knownType('core/v1.TaintEffect')).toEqual({ description: '', schema: { type: 'string' } });
    expect(knownType('meta/v1.ConditionStatus')).toEqual({ description: '', schema: { type: 'string' } });
    expect(knownType('core/v1.PullPolicy')).toEqual({ description: 'PullPolicy describes a policy for if/when to pull a container image', schema: { type: 'string' } });
    expect(knownType('core/v1.Protocol')!.schema).toEqual({ type: 'string', default: 'TCP' });
    expect(knownType('core/v1.ResourceList')!.schema).toMatchObject({ type: 'object', additionalProperties: { 'x-kubernetes-int-or-string': true } });
    for (const key of ['core/v1.ResourceName', 'core/v1.ConditionStatus', 'apps/v1.PersistentVolumeClaimRetentionPolicyType', 'batch/v1.ConcurrencyPolicy'])
      expect(knownTypeKeys()).toContain(key);
  });

  it('shares each rendered type between its uses', () => {
    const term = knownType('core/v1.PodAffinityTerm')!;
    const affinity = knownType('core/v1.PodAffinity')!;
    const required = affinity.schema.properties!.requiredDuringSchedulingIgnoredDuringExecution!;
    expect(required.items!.description).toBe(term.description);
    expect(required.items!.properties).toBe(term.schema.properties);
  });

  it('hands out a fresh copy each time', () => {
    const a = knownType('core/v1.ObjectReference')!;
    a.schema.type = 'mutated';
    expect(knownType('core/v1.ObjectReference')!.schema.type).toBe('object');
  });

  it('knows nothing of types it has no schema for', () => {
    expect(knownType('core/v1.NoSuchType')).toBeUndefined();
  });
});
