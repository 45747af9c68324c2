/** Trigger matching and the watermark walk, with the upstream unit vectors of reference-operators.md §3.2. */
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { EventJob, Trigger } from '../../api/v1/eventjob_types.js';
import { eventToAnswer, firesTrigger, matchesTrigger, messageReportsOutcome, triggerIndexValue } from './trigger_match.js';

const event = (message: string, at = '2024-01-15T10:01:05Z', involved: Partial<CoreEvent['involvedObject']> = {}): CoreEvent => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `e-${at}-${message.length}`, namespace: 'default', creationTimestamp: at },
  involvedObject: { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', ...involved },
  message,
});

const trigger = (over: Partial<Trigger> = {}): Trigger => ({ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', type: 'Complete', ...over });
const eventJob = (t: Trigger, watermark?: string): EventJob => ({
  apiVersion: 'batch.kitagry.github.io/v1',
  kind: 'EventJob',
  metadata: { name: 'ej', namespace: 'default' },
  spec: { trigger: t, jobTemplate: { spec: { template: {} } } },
  ...(watermark ? { status: { last_scheduled_time: watermark } } : {}),
});

describe('matchesTrigger (upstream vectors, names empty on both sides)', () => {
  const unnamed = (type: string): Trigger => trigger({ name: '', type });
  const about = (message: string) => event(message, undefined, { name: '' });
  it('Complete matches "…, status: Complete" and not "…, status: Failed"; Failed matches "…, status: Failed"', () => {
    expect(matchesTrigger(unnamed('Complete'), about('aw completed job: cronjob-27210675, status: Complete'))).toBe(true);
    expect(matchesTrigger(unnamed('Complete'), about('aw completed job: cronjob-27210675, status: Failed'))).toBe(false);
    expect(matchesTrigger(unnamed('Failed'), about('aw completed job: cronjob-27210675, status: Failed'))).toBe(true);
  });
  it('needs the involved object name to equal the trigger name', () => {
    expect(matchesTrigger(trigger(), event('Saw completed job: other-1, status: Complete', undefined, { name: 'other' }))).toBe(false);
  });
});

describe('messageReportsOutcome [KF-EJ-1]', () => {
  it('accepts both the status: and the condition: form, nothing else', () => {
    expect(messageReportsOutcome('Saw completed job: hello-1, status: Complete', 'Complete')).toBe(true);
    expect(messageReportsOutcome('Saw completed job: hello-1, condition: Complete', 'Complete')).toBe(true);
    expect(messageReportsOutcome('Created job hello-1', 'Complete')).toBe(false);
    expect(messageReportsOutcome(undefined, 'Complete')).toBe(false);
  });

  it('matches any message ending in "status: <type>" as the original, with or without a preceding ", "', () => {
    expect(messageReportsOutcome('Job finished status: Complete', 'Complete')).toBe(true);
    expect(messageReportsOutcome('status: Complete', 'Complete')).toBe(true);
    expect(messageReportsOutcome('Job finished; status: Failed', 'Failed')).toBe(true);
    expect(messageReportsOutcome('Job finished condition: Complete', 'Complete')).toBe(true);
    expect(messageReportsOutcome('Job finished status: Complete.', 'Complete')).toBe(false);
    expect(messageReportsOutcome('Job finished status: Failed', 'Complete')).toBe(false);
  });
});

describe('firesTrigger [KF-EJ-2]', () => {
  it('also requires the involved object apiVersion and kind', () => {
    expect(firesTrigger(trigger(), event('x, status: Complete'))).toBe(true);
    expect(firesTrigger(trigger(), event('x, status: Complete', undefined, { kind: 'Job' }))).toBe(false);
    expect(firesTrigger(trigger({ apiVersion: undefined, kind: undefined }), event('x, status: Complete'))).toBe(false);
  });
});

describe('triggerIndexValue', () => {
  it('is <apiVersion>/<kind>, and absent when either is empty', () => {
    expect(triggerIndexValue(eventJob(trigger()))).toBe('batch/v1/CronJob');
    expect(triggerIndexValue(eventJob(trigger({ kind: '' })))).toBeUndefined();
    expect(triggerIndexValue(eventJob(trigger({ apiVersion: undefined })))).toBeUndefined();
  });
});

describe('eventToAnswer (the watermark walk)', () => {
  const done = (at: string) => event('Saw completed job: hello-1, status: Complete', at);
  it('answers the newest matching Event newer than the watermark (several pending Events give one Job)', () => {
    expect(eventToAnswer(eventJob(trigger()), [done('2024-01-15T10:01:05Z'), done('2024-01-15T10:03:05Z'), done('2024-01-15T10:02:05Z')])).toBe('2024-01-15T10:03:05Z');
  });
  it('skips Events of exactly the watermark second, and stops at the first older one', () => {
    const ej = eventJob(trigger(), '2024-01-15T10:02:05Z');
    expect(eventToAnswer(ej, [done('2024-01-15T10:02:05Z')])).toBeUndefined();
    expect(eventToAnswer(ej, [done('2024-01-15T10:01:05Z')])).toBeUndefined();
    expect(eventToAnswer(ej, [done('2024-01-15T10:01:05Z'), done('2024-01-15T10:04:05Z')])).toBe('2024-01-15T10:04:05Z');
  });
  it('passes over newer non-matching Events to an older matching one above the watermark', () => {
    const ej = eventJob(trigger(), '2024-01-15T10:00:00Z');
    expect(eventToAnswer(ej, [done('2024-01-15T10:01:05Z'), event('Created job hello-2', '2024-01-15T10:02:00Z')])).toBe('2024-01-15T10:01:05Z');
  });
});
