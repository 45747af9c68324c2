/** Status conditions, finalizers and owner references, with controller-runtime semantics. */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { KubeObject } from '../client/object.js';
import { findStatusCondition, isStatusConditionTrue, removeStatusCondition, setStatusCondition } from './conditions.js';
import { addFinalizer, containsFinalizer, removeFinalizer } from './finalizers.js';
import { AlreadyOwnedError, getControllerOf, setControllerReference, setOwnerReference } from './owner-references.js';

const T0 = Date.parse('2024-01-15T10:00:00Z');
const T1 = Date.parse('2024-01-15T10:05:30.700Z');

describe('setStatusCondition', () => {
  test('adds a missing condition with lastTransitionTime = now at second precision', () => {
    const conditions: Condition[] = [];
    expect(setStatusCondition(conditions, { type: 'Ready', status: 'False', reason: 'Creating', message: '' }, T0)).toBe(true);
    expect(conditions).toEqual([{ type: 'Ready', status: 'False', reason: 'Creating', message: '', lastTransitionTime: '2024-01-15T10:00:00Z' }]);
  });

  test('keeps lastTransitionTime when only reason or message change', () => {
    const conditions: Condition[] = [];
    setStatusCondition(conditions, { type: 'Ready', status: 'False', reason: 'A', message: 'a' }, T0);
    expect(setStatusCondition(conditions, { type: 'Ready', status: 'False', reason: 'B', message: 'b' }, T1)).toBe(true);
    expect(findStatusCondition(conditions, 'Ready')).toMatchObject({ reason: 'B', message: 'b', lastTransitionTime: '2024-01-15T10:00:00Z' });
  });

  test('moves lastTransitionTime when the status changes, and reports no change for an identical condition', () => {
    const conditions: Condition[] = [];
    setStatusCondition(conditions, { type: 'Ready', status: 'False', reason: 'A', message: '' }, T0);
    setStatusCondition(conditions, { type: 'Ready', status: 'True', reason: 'A', message: '' }, T1);
    expect(conditions[0]!.lastTransitionTime).toBe('2024-01-15T10:05:30Z');
    expect(isStatusConditionTrue(conditions, 'Ready')).toBe(true);
    expect(setStatusCondition(conditions, { type: 'Ready', status: 'True', reason: 'A', message: '' }, T1 + 60_000)).toBe(false);
    expect(removeStatusCondition(conditions, 'Ready')).toBe(true);
    expect(conditions).toEqual([]);
  });
});

describe('finalizers', () => {
  test('add and remove report whether they changed the object', () => {
    const obj: KubeObject = { metadata: { name: 'a' } };
    expect(addFinalizer(obj, 'example.com/cleanup')).toBe(true);
    expect(addFinalizer(obj, 'example.com/cleanup')).toBe(false);
    expect(containsFinalizer(obj, 'example.com/cleanup')).toBe(true);
    expect(removeFinalizer(obj, 'example.com/cleanup')).toBe(true);
    expect(removeFinalizer(obj, 'example.com/cleanup')).toBe(false);
    expect(obj.metadata!.finalizers).toEqual([]);
  });
});

describe('owner references', () => {
  const owner = (name: string, kind = 'CronJob'): KubeObject => ({ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind, metadata: { namespace: 'ns', name, uid: `uid-${name}` } });

  test('setControllerReference sets a controller reference that blocks owner deletion', () => {
    const job: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { namespace: 'ns', name: 'j' } };
    setControllerReference(owner('a'), job);
    setControllerReference(owner('a'), job);
    expect(job.metadata!.ownerReferences).toEqual([{ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'a', uid: 'uid-a', controller: true, blockOwnerDeletion: true }]);
    expect(getControllerOf(job)?.name).toBe('a');
  });

  test('setControllerReference refuses a second controller', () => {
    const job: KubeObject = { metadata: { namespace: 'ns', name: 'j' } };
    setControllerReference(owner('a'), job);
    expect(() => setControllerReference(owner('b'), job)).toThrow(AlreadyOwnedError);
    expect(() => setControllerReference(owner('b'), job)).toThrow('is already owned by another CronJob controller a');
  });

  test('setOwnerReference adds a plain owner next to the controller', () => {
    const job: KubeObject = { metadata: { namespace: 'ns', name: 'j' } };
    setControllerReference(owner('a'), job);
    setOwnerReference(owner('b'), job);
    expect(job.metadata!.ownerReferences!.map((r) => [r.name, r.controller ?? false])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  test('cross-namespace owners are refused', () => {
    const job: KubeObject = { metadata: { namespace: 'other', name: 'j' } };
    expect(() => setControllerReference(owner('a'), job)).toThrow('cross-namespace owner references are disallowed');
  });
});
