/**
 * The 1.32 resource table against Kubernetes' own 1.32 OpenAPI definitions, and the composition of
 * specific and generic kinds (specific wins by group/resource, discovery facts from the table).
 */
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2.js';
import { asStored } from '../../store/kube-object.js';
import { BUILTIN_DEFINITION_SOURCES } from '../../schemas/builtin-definitions.generated.js';
import { builtinDefinition, definitionName } from '../../schemas/builtin-schemas.js';
import { defineKind } from '../define-kind.js';
import { apiResources } from './api-resources.js';
import { composeBuiltinKinds } from './compose-builtin-kinds.js';
import { genericKind, genericKinds, missingRequiredStrings } from './generic-kinds.js';
import { horizontalPodAutoscalersV1, hpaV1ToV2, hpaV2ToV1 } from './hpa-kinds.js';

/** Root kinds of the definitions that are subresource bodies, not resources of their own. */
const subresourceKinds = ['autoscaling/v1/Scale', 'policy/v1/Eviction', 'authentication.k8s.io/v1/TokenRequest'];

test('every row and version has a 1.32 definition whose group-version-kind it matches', () => {
  for (const row of apiResources) {
    for (const version of row.versions) {
      const schema = builtinDefinition(definitionName(row.group, version, row.kind));
      expect(schema?.['x-kubernetes-group-version-kind']).toEqual([{ group: row.group, version, kind: row.kind }]);
    }
  }
});

test('every root kind of the definitions is a row of the table (or a subresource body)', () => {
  const roots = Object.values(BUILTIN_DEFINITION_SOURCES)
    .map((text) => JSON.parse(text)['x-kubernetes-group-version-kind']?.[0])
    .filter(Boolean)
    .map((gvk: { group: string; version: string; kind: string }) => `${gvk.group}/${gvk.version}/${gvk.kind}`);
  const rows = apiResources.flatMap((r) => r.versions.map((v) => `${r.group}/${v}/${r.kind}`));
  expect(roots.length).toBe(rows.length + subresourceKinds.length);
  expect(new Set(roots)).toEqual(new Set([...rows, ...subresourceKinds]));
});

test('58 resources, unique by group/resource', () => {
  expect(apiResources).toHaveLength(58);
  expect(new Set(apiResources.map((r) => `${r.group}/${r.resource}`)).size).toBe(58);
});

test('a specific kind replaces every generic version of its group/resource and takes the table facts', () => {
  const specific = defineKind({ group: 'networking.k8s.io', resource: 'ingresses', kind: 'Ingress', namespaced: true, fields: ['spec'] });
  const composed = composeBuiltinKinds([specific], genericKinds());
  const ingresses = composed.filter((k) => k.group === 'networking.k8s.io' && k.resource === 'ingresses');
  expect(ingresses).toHaveLength(1);
  expect(ingresses[0]!.table).toBe(specific.table);
  expect(ingresses[0]!.shortNames).toEqual(['ing']);
  expect(composed.filter((k) => k.resource === 'horizontalpodautoscalers').map((k) => k.version)).toEqual(['v2', 'v1']);
  expect(composed).toHaveLength(59);
});

test('generic kinds: status subresource, scale, other subresources and schema checks from the data', () => {
  const row = (resource: string) => apiResources.find((r) => r.resource === resource)!;
  const pods = genericKind(row('pods'), 'v1');
  expect(pods.otherSubresources).toEqual(['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy']);
  expect(pods.statusSubresource).toBe(true);
  expect(genericKind(row('replicasets'), 'v1').scale?.labelSelectorPath).toBe('.spec.selector');
  const schema = builtinDefinition('io.k8s.api.storage.v1.StorageClass');
  expect(missingRequiredStrings({ metadata: { name: 'x' } }, schema, '').map((e) => e.field)).toEqual(['provisioner']);
});

test('HPA v1 ↔ v2 conversion keeps what v1 cannot say in annotations', () => {
  const v2 = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', namespace: 'd' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
    },
    status: { desiredReplicas: 2, currentReplicas: 2 },
  };
  const v1 = hpaV2ToV1(structuredClone(v2));
  expect(v1.spec).toEqual({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
  expect(v1.status).toEqual({ currentReplicas: 2, desiredReplicas: 2 });
  const back = hpaV1ToV2(v1);
  expect(asStored<HorizontalPodAutoscaler>(back).spec?.metrics).toEqual([v2.spec.metrics[1], v2.spec.metrics[0]]);
  expect(back.metadata.annotations).toBeUndefined();
  expect(horizontalPodAutoscalersV1.bucket).toBe('horizontalpodautoscalers.autoscaling');
});

test('generic kinds apply the schema defaults at every depth (a PodTemplate container port gets TCP)', () => {
  const row = apiResources.find((r) => r.resource === 'podtemplates')!;
  const kind = genericKind(row, 'v1');
  const o = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't' }, template: { spec: { containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80 }] }] } } };
  kind.strategy.prepareForCreate!(o as never, { now: 0, uid: () => 'u' });
  expect(o.template.spec.containers[0]!.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
});
