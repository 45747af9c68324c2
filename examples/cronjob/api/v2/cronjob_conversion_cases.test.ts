/**
 * The multiversion tutorial's schedule mapping, case by case: v1's string split into v2's cron fields
 * (`*` unset) and joined back, and what one version cannot hold kept in an annotation of the other.
 */
import { KindConversion } from 'kubeforge/runtime';
import type { CronJob as CronJobV1 } from '../v1/cronjob_types.js';
import { CronJobHub } from '../v1/cronjob_conversion.js';
import type { CronJob as CronJobV2, CronSchedule } from './cronjob_types.js';
import { CronJobV2Convertible, V1_SCHEDULE_ANNOTATION, V2_SCHEDULE_ANNOTATION } from './cronjob_conversion.js';

const conversion = new KindConversion(CronJobHub.hub).spoke(CronJobV2Convertible);
const jobTemplate = { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox' }], restartPolicy: 'OnFailure' } } } };

function v1(schedule: string, annotations?: Record<string, string>): CronJobV1 {
  return {
    apiVersion: 'batch.tutorial.kubebuilder.io/v1',
    kind: 'CronJob',
    metadata: { name: 'c', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { schedule, jobTemplate, suspend: true },
  };
}

function v2(schedule: CronSchedule, annotations?: Record<string, string>): CronJobV2 {
  return {
    apiVersion: 'batch.tutorial.kubebuilder.io/v2',
    kind: 'CronJob',
    metadata: { name: 'c', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { schedule, jobTemplate, suspend: true },
  };
}

const toV2 = async (o: CronJobV1): Promise<CronJobV2> => (await conversion.convert(o, 'batch.tutorial.kubebuilder.io/v2')) as CronJobV2;
const toV1 = async (o: CronJobV2): Promise<CronJobV1> => (await conversion.convert(o, 'batch.tutorial.kubebuilder.io/v1')) as CronJobV1;

describe('CronJob v1 → v2: the schedule string split into fields', () => {
  it.each([
    ['*/1 * * * *', { minute: '*/1' }],
    ['0 9 * * 1-5', { minute: '0', hour: '9', dayOfWeek: '1-5' }],
    ['30 4 1 jan *', { minute: '30', hour: '4', dayOfMonth: '1', month: 'jan' }],
    ['* * * * *', {}],
  ])('%j → %j, nothing else changed, no annotation', async (schedule, fields) => {
    const converted = await toV2(v1(schedule));
    expect(converted).toEqual(v2(fields));
  });

  it.each(['@hourly', '@every 90s', '0  9 * * *', ''])(
    '%j (not five fields) keeps the string in an annotation, with every field unset, and comes back',
    async (schedule) => {
      const converted = await toV2(v1(schedule));
      expect(converted.spec.schedule).toEqual({});
      expect(converted.metadata?.annotations).toEqual({ [V1_SCHEDULE_ANNOTATION]: schedule });
      expect(await toV1(converted)).toEqual(v1(schedule));
    },
  );

  it('a schedule set in v2 since replaces the kept v1 string (and drops the annotation)', async () => {
    const read = await toV2(v1('@hourly', { team: 'a' }));
    read.spec.schedule = { minute: '5' };
    expect(await toV1(read)).toEqual(v1('5 * * * *', { team: 'a' }));
  });
});

describe('CronJob v2 → v1: the fields joined into the schedule string', () => {
  it('unset fields become `*`', async () => {
    expect(await toV1(v2({ minute: '*/5', dayOfWeek: 'sun' }))).toEqual(v1('*/5 * * * sun'));
  });

  it('an explicit `*` (which v2 → v1 → v2 would unset) is kept on the hub and comes back', async () => {
    const hub = await toV1(v2({ minute: '0', hour: '*' }));
    expect(hub.spec.schedule).toBe('0 * * * *');
    expect(hub.metadata?.annotations).toEqual({ [V2_SCHEDULE_ANNOTATION]: JSON.stringify({ minute: '0', hour: '*' }) });
    expect(await toV2(hub)).toEqual(v2({ minute: '0', hour: '*' }));
  });

  it('a kept v2 schedule is ignored once the v1 schedule was changed', async () => {
    const hub = await toV1(v2({ minute: '0', hour: '*' }));
    hub.spec.schedule = '15 3 * * *';
    expect(await toV2(hub)).toEqual(v2({ minute: '15', hour: '3' }));
  });
});
