/** LimitRanger: defaults merged into containers, Container/Pod/PersistentVolumeClaim limits with the 1.32 messages. */
import { ObjectStore } from '../../store/object-store.js';
import { ResourceCatalog } from '../../registry/resource-catalog.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { pods } from '../../registry/builtin/core-kinds.js';
import type { ApiError } from '../../errors/status-errors.js';
import type { AdmissionRequest } from '../admission-chain.js';
import { LimitRanger } from './limit-ranger.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';

function ranger(limits: unknown[]): LimitRanger {
  const store = new ObjectStore({ initialResourceVersion: 1, historyLimit: 10 });
  store.create('limitranges', { metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } });
  return new LimitRanger({ store, catalog: new ResourceCatalog([]), clock: new VirtualClock(0) });
}

const podRequest = (containers: unknown[], rt = pods, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionRequest => ({
  operation, rt, namespace: 'ns', name: 'web-', subresource: undefined, object: { metadata: { name: 'web-x1', namespace: 'ns' }, spec: { containers } }, oldObject: undefined, user: undefined, dryRun: false,
});

function refusal(plugin: LimitRanger, request: AdmissionRequest): string {
  try {
    plugin.validate(request);
  } catch (e) {
    return (e as ApiError).status.message ?? '';
  }
  return '';
}

test('maxLimitRequestRatio: the provided ratio is printed with six decimals', () => {
  const plugin = ranger([{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }]);
  const request = podRequest([{ name: 'c', resources: { requests: { cpu: '100m' }, limits: { cpu: '500m' } } }]);
  expect(refusal(plugin, request)).toBe('pods "web-" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000.');
});

test('Pod limits apply to the sum of the containers; several violations are listed in brackets', () => {
  const plugin = ranger([{ type: 'Pod', max: { cpu: '1', memory: '1Gi' } }]);
  const request = podRequest([
    { name: 'a', resources: { limits: { cpu: '600m', memory: '1Gi' } } },
    { name: 'b', resources: { limits: { cpu: '600m', memory: '512Mi' } } },
  ]);
  expect(refusal(plugin, request)).toBe('pods "web-" is forbidden: [maximum cpu usage per Pod is 1, but limit is 1200m., maximum memory usage per Pod is 1Gi, but limit is 1610612736.]');
});

test('a max without a default limit leaves a container without limit refused; defaults fill only what is missing', () => {
  const plugin = ranger([{ type: 'Container', max: { memory: '1Gi' } }]);
  expect(refusal(plugin, podRequest([{ name: 'c' }]))).toBe('pods "web-" is forbidden: maximum memory usage per Container is 1Gi.  No limit is specified.');
  const defaulting = ranger([{ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '500m' } }]);
  const request = podRequest([{ name: 'c', resources: { requests: { cpu: '200m' } } }]);
  defaulting.admit(request);
  expect(asStored<Pod>(request.object!).spec!.containers[0]!.resources).toEqual({ requests: { cpu: '200m' }, limits: { cpu: '1' } });
  expect(request.object!.metadata.annotations).toEqual({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu limit for container c' });
});

test('pod updates are not checked', () => {
  const plugin = ranger([{ type: 'Container', max: { cpu: '1' } }]);
  expect(refusal(plugin, podRequest([{ name: 'c', resources: { limits: { cpu: '2' } } }], pods, 'UPDATE'))).toBe('');
});
