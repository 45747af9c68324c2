/**
 * The rollout numbers against cases worked in pkg/controller/deployment/util's tests and the Kubernetes
 * docs: percentages round surge up and unavailability down, both zero resolve to one unavailable, and
 * proportional scaling splits an added 5 replicas 3/2 between ReplicaSets of 8 and 5.
 */
import { expect, test } from '@jest/globals';
import { maxSurge, maxUnavailable, newReplicaSetSize, replicaSetProportion, resolveFenceposts, scaledValue } from './rollout-arithmetic.js';

const rolling = (surge: number | string, unavailable: number | string) => ({ type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } });

test('int-or-percent values scale against the replica count, surge rounding up and unavailability down', () => {
  expect(scaledValue('25%', 10, true)).toBe(3);
  expect(scaledValue('25%', 10, false)).toBe(2);
  expect(scaledValue(4, 10, true)).toBe(4);
  expect(scaledValue('0%', 10, true)).toBe(0);
  expect(() => scaledValue('abc', 10, true)).toThrow('invalid value for IntOrString');
  // 25%/25% of 3: surge ceil(0.75)=1, unavailable floor(0.75)=0
  expect(resolveFenceposts('25%', '25%', 3)).toEqual([1, 0]);
  // both resolving to zero: one unavailable
  expect(resolveFenceposts('0%', '10%', 5)).toEqual([0, 1]);
});

test('maxSurge and maxUnavailable: Recreate has none, unavailability never exceeds the replicas', () => {
  expect(maxSurge(10, rolling('25%', '25%'))).toBe(3);
  expect(maxUnavailable(10, rolling('25%', '25%'))).toBe(2);
  expect(maxUnavailable(2, rolling(0, 5))).toBe(2);
  expect(maxUnavailable(0, rolling(1, 1))).toBe(0);
  expect(maxSurge(10, { type: 'Recreate' })).toBe(0);
  expect(maxUnavailable(10, { type: 'Recreate' })).toBe(0);
});

test("the new ReplicaSet's next size stays within replicas + surge and never beyond replicas", () => {
  // 10 replicas, surge 3: 10 old → the new one may take 3
  expect(newReplicaSetSize(10, rolling(3, 2), 10, 0)).toBe(3);
  // already 13 in total: no room
  expect(newReplicaSetSize(10, rolling(3, 2), 13, 3)).toBe(3);
  // room for 5 but only 2 missing
  expect(newReplicaSetSize(10, rolling(5, 0), 10, 8)).toBe(10);
  expect(newReplicaSetSize(4, { type: 'Recreate' }, 4, 0)).toBe(4);
});

test("proportional scaling: the docs' 10 → 15 example (old 8, new 5, max-replicas 13) adds 3 and 2", () => {
  // 15 + surge 3 = 18 allowed; 13 exist; 5 to add, larger ReplicaSet first
  const old = replicaSetProportion(8, 13, 15, 18, 13, 5, 0);
  expect(old).toBe(3);
  const fresh = replicaSetProportion(5, 13, 15, 18, 13, 5, old);
  expect(fresh).toBe(2);
  // scaling down to zero takes each ReplicaSet's whole size
  expect(replicaSetProportion(4, 13, 0, 0, 13, -8, 0)).toBe(-4);
  // never more than what is left to add or remove
  expect(replicaSetProportion(8, 13, 15, 18, 13, 5, 4)).toBe(1);
  expect(replicaSetProportion(8, 13, 5, 6, 13, -7, -5)).toBe(-2);
  expect(replicaSetProportion(0, 13, 15, 18, 13, 5, 0)).toBe(0);
});
