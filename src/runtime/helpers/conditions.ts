/**
 * Status-condition helpers with apimachinery's meta.SetStatusCondition semantics: a condition is keyed by
 * type; `lastTransitionTime` changes only when `status` changes (or is set when missing); reason, message
 * and observedGeneration are updated in place.
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { Clock } from '../clock.js';

export type ConditionInput = Omit<Condition, 'lastTransitionTime'> & { lastTransitionTime?: string };

/** Sets `condition` in `conditions` (mutated); returns true when anything changed. */
export function setStatusCondition(conditions: Condition[], condition: ConditionInput, clock: Clock | number): boolean {
  const existing = conditions.find((c) => c.type === condition.type);
  const now = rfc3339Seconds(typeof clock === 'number' ? clock : clock.now());
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: condition.lastTransitionTime ?? now } as Condition);
    return true;
  }
  let changed = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = condition.lastTransitionTime ?? now;
    changed = true;
  }
  if (existing.reason !== condition.reason) {
    existing.reason = condition.reason;
    changed = true;
  }
  if (existing.message !== condition.message) {
    existing.message = condition.message;
    changed = true;
  }
  if (condition.observedGeneration !== undefined && existing.observedGeneration !== condition.observedGeneration) {
    existing.observedGeneration = condition.observedGeneration;
    changed = true;
  }
  return changed;
}

export function findStatusCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** Removes the condition of `type`; true when one was removed. */
export function removeStatusCondition(conditions: Condition[], type: string): boolean {
  const index = conditions.findIndex((c) => c.type === type);
  if (index < 0) return false;
  conditions.splice(index, 1);
  return true;
}

export function isStatusConditionTrue(conditions: Condition[] | undefined, type: string): boolean {
  return findStatusCondition(conditions, type)?.status === 'True';
}

export function isStatusConditionFalse(conditions: Condition[] | undefined, type: string): boolean {
  return findStatusCondition(conditions, type)?.status === 'False';
}

/** metav1.Time wire format: RFC 3339 at one-second precision, UTC `Z`. */
export function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
