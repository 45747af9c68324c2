/** The StatefulSet, DaemonSet and ControllerRevision strategies: 1.32 defaults, validation messages, scale paths and cells. */
import type { DaemonSet, DaemonSetSpec, StatefulSet, StatefulSetSpec } from 'kubernetes-types/apps/v1.js';
import { fieldErrorText } from '../../errors/field-errors.js';
import { asStored } from '../../store/kube-object.js';
import type { KubeObject } from '../../store/object-store.js';
import { controllerRevisions, daemonSets, selectorMatches, statefulSets } from './workload-kinds.js';

const ctx = { now: 0, uid: () => 'uid-1' };
const stsSpec = (o: KubeObject): Partial<StatefulSetSpec> => asStored<StatefulSet>(o).spec!;
const dsSpec = (o: KubeObject): Partial<DaemonSetSpec> => asStored<DaemonSet>(o).spec!;
const texts = (errs: Parameters<typeof fieldErrorText>[0][]): string[] => errs.map(fieldErrorText);
const podTemplate = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const set = (spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, template: structuredClone(podTemplate), ...spec } }) as KubeObject;

test('selectors match labels as LabelSelectors do', () => {
  expect(selectorMatches({ matchLabels: { a: '1' } }, { a: '1', b: '2' })).toBe(true);
  expect(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, { a: '1' })).toBe(false);
});

test('StatefulSet defaults and the scale subresource', () => {
  const s = set({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] });
  statefulSets.strategy.prepareForCreate!(s, ctx);
  expect(s.spec).toMatchObject({
    replicas: 1, podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10,
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
  });
  expect(stsSpec(s).volumeClaimTemplates?.[0]).toEqual({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' },
  });
  expect(stsSpec(s).template?.spec?.restartPolicy).toBe('Always');
  expect(s.status).toEqual({ replicas: 0, availableReplicas: 0 });
  expect(statefulSets.scale).toEqual({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' });
  const onDelete = set({ updateStrategy: { type: 'OnDelete' } });
  statefulSets.strategy.prepareForCreate!(onDelete, ctx);
  expect(stsSpec(onDelete).updateStrategy).toEqual({ type: 'OnDelete' });
});

test('StatefulSet validation messages', () => {
  const s = set({ podManagementPolicy: 'Random', replicas: -1, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Retain' }, selector: { matchLabels: { app: 'other' } } });
  stsSpec(s).template!.spec!.restartPolicy = 'Never';
  stsSpec(s).updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: -2 } };
  expect(texts(statefulSets.strategy.validateCreate!(s))).toEqual([
    "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
    'spec.updateStrategy.rollingUpdate.partition: Invalid value: -2: must be greater than or equal to 0',
    'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
  const noSelector = set();
  delete stsSpec(noSelector).selector;
  statefulSets.strategy.prepareForCreate!(noSelector, ctx);
  expect(texts(statefulSets.strategy.validateCreate!(noSelector))).toEqual(['spec.selector: Required value']);
});

test('StatefulSet updates: replicas, template, strategy and retention may change; the rest is forbidden', () => {
  const old = set();
  statefulSets.strategy.prepareForCreate!(old, ctx);
  const scaled = structuredClone(old);
  stsSpec(scaled).replicas = 5;
  stsSpec(scaled).template!.spec!.containers[0]!.image = 'nginx:2';
  stsSpec(scaled).updateStrategy!.rollingUpdate!.partition = 2;
  expect(statefulSets.strategy.validateUpdate!(scaled, old)).toEqual([]);
  const renamed = structuredClone(old);
  stsSpec(renamed).serviceName = 'other';
  expect(texts(statefulSets.strategy.validateUpdate!(renamed, old))).toEqual([
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
});

test('DaemonSet defaults, validation, immutable selector and columns', () => {
  const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default', creationTimestamp: '1970-01-01T00:00:00Z' }, spec: { selector: { matchLabels: { app: 'web' } }, template: structuredClone(podTemplate) } } as KubeObject;
  daemonSets.strategy.prepareForCreate!(ds, ctx);
  expect(ds.spec).toMatchObject({ revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } } });
  expect(ds.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
  const changed = structuredClone(ds);
  dsSpec(changed).selector = { matchLabels: { app: 'x' } };
  dsSpec(changed).template!.metadata!.labels = { app: 'x' };
  expect(texts(daemonSets.strategy.validateUpdate!(changed, ds))).toEqual(['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable']);
  const percent = structuredClone(ds);
  dsSpec(percent).updateStrategy!.rollingUpdate!.maxUnavailable = 'ten';
  expect(texts(daemonSets.strategy.validateCreate!(percent))[0]).toContain("spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"ten\": a valid percent string must be a numeric string followed by an ending '%'");
  expect(daemonSets.table.cells({ ...ds, status: { desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 1 } } as KubeObject, 0)).toEqual([
    'agent', 2, 2, 1, 2, 1, '<none>', '0s', 'c', 'nginx', 'app=web',
  ]);
});

test('ControllerRevision columns name the controller as kind.group/name', () => {
  const rev = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'web-abc', namespace: 'default', creationTimestamp: '1970-01-01T00:00:00Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }] }, revision: 3 } as KubeObject;
  expect(controllerRevisions.table.cells(rev, 0)).toEqual(['web-abc', 'statefulset.apps/web', 3, '0s']);
  expect(texts(controllerRevisions.strategy.validateUpdate!({ ...rev, data: { x: 1 } } as KubeObject, rev))).toEqual(['data: Invalid value: runtime.RawExtension{...}: field is immutable']);
});
