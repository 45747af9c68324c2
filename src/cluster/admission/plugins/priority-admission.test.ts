/** Priority admission: class → priority and preemptionPolicy, the global default, 1.32's 403s, one default class. */
import { ObjectStore } from '../../store/object-store.js';
import { ResourceCatalog } from '../../registry/resource-catalog.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { pods } from '../../registry/builtin/core-kinds.js';
import { genericKinds } from '../../registry/builtin/generic-kinds.js';
import type { ApiError } from '../../errors/status-errors.js';
import type { AdmissionRequest } from '../admission-chain.js';
import { PriorityAdmission } from './priority-admission.js';
import type { Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';

/** The admitted pod's spec, read as a PodSpec. */
const podSpec = (request: AdmissionRequest): PodSpec => asStored<Pod>(request.object!).spec!;

const catalog = new ResourceCatalog(genericKinds());
const priorityClassType = catalog.find('scheduling.k8s.io', 'v1', 'priorityclasses')!;

function plugin(classes: Array<{ name: string; value: number; globalDefault?: boolean; preemptionPolicy?: string }>): PriorityAdmission {
  const store = new ObjectStore({ initialResourceVersion: 1, historyLimit: 10 });
  for (const { name, ...rest } of classes) store.create(priorityClassType.bucket, { metadata: { name }, preemptionPolicy: 'PreemptLowerPriority', ...rest });
  return new PriorityAdmission({ store, catalog, clock: new VirtualClock(0) });
}

const podCreate = (spec: Record<string, unknown>): AdmissionRequest => ({
  operation: 'CREATE', rt: pods, namespace: 'ns', name: 'p', subresource: undefined,
  object: { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } }, oldObject: undefined, user: undefined, dryRun: false,
});

function refusal(run: () => void): { code: number; message: string } {
  try {
    run();
  } catch (e) {
    return { code: (e as ApiError).code, message: (e as ApiError).status.message ?? '' };
  }
  return { code: 0, message: '' };
}

test('a named class sets priority and preemptionPolicy', () => {
  const request = podCreate({ priorityClassName: 'batch' });
  plugin([{ name: 'batch', value: 500, preemptionPolicy: 'Never' }]).admit(request);
  expect(podSpec(request)).toMatchObject({ priorityClassName: 'batch', priority: 500, preemptionPolicy: 'Never' });
});

test('no class: 0 and PreemptLowerPriority without a default class, the default class (named on the pod) with one', () => {
  const plain = podCreate({});
  plugin([{ name: 'batch', value: 500 }]).admit(plain);
  expect(podSpec(plain).priority).toBe(0);
  expect(podSpec(plain).preemptionPolicy).toBe('PreemptLowerPriority');
  expect(podSpec(plain).priorityClassName).toBeUndefined();
  const defaulted = podCreate({});
  plugin([{ name: 'batch', value: 500 }, { name: 'normal', value: 100, globalDefault: true, preemptionPolicy: 'Never' }]).admit(defaulted);
  expect(podSpec(defaulted)).toMatchObject({ priorityClassName: 'normal', priority: 100, preemptionPolicy: 'Never' });
});

test('an unknown class and a priority that differs from the class are refused with 403', () => {
  const p = plugin([{ name: 'batch', value: 500 }]);
  expect(refusal(() => p.admit(podCreate({ priorityClassName: 'foo' })))).toEqual({ code: 403, message: 'pods "p" is forbidden: no PriorityClass with name foo was found' });
  expect(refusal(() => p.admit(podCreate({ priorityClassName: 'batch', priority: 7 })))).toEqual({
    code: 403,
    message: 'pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 500 from the given PriorityClass name',
  });
  const same = podCreate({ priorityClassName: 'batch', priority: 500 });
  p.admit(same);
  expect(podSpec(same).priority).toBe(500);
});

test('an update keeps the stored priority and preemptionPolicy', () => {
  const request: AdmissionRequest = { ...podCreate({}), operation: 'UPDATE', oldObject: { metadata: { name: 'p' }, spec: { priority: 500, preemptionPolicy: 'Never' } } };
  plugin([]).admit(request);
  expect(podSpec(request)).toMatchObject({ priority: 500, preemptionPolicy: 'Never' });
});

test('a second globalDefault class is refused, the default class itself may be updated', () => {
  const p = plugin([{ name: 'normal', value: 100, globalDefault: true }]);
  const write = (operation: 'CREATE' | 'UPDATE', name: string): AdmissionRequest => ({
    operation, rt: priorityClassType, namespace: undefined, name, subresource: undefined, object: { metadata: { name }, value: 5, globalDefault: true }, oldObject: undefined, user: undefined, dryRun: false,
  });
  expect(refusal(() => p.validate(write('CREATE', 'other')))).toEqual({
    code: 403,
    message: 'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass normal is already marked as default. Only one default can exist',
  });
  expect(refusal(() => p.validate(write('UPDATE', 'normal')))).toEqual({ code: 0, message: '' });
});
