/**
 * The upstream schedule sequences (§6.1 "Furiko schedule sequences" and the cron worker vectors) through
 * the real parser: registration, then each next time bumped from the previous one, and ticks of the book.
 */
import type { JobConfig, ScheduleSpec } from '../../api/v1alpha1/jobconfig_types.js';
import { defaultFurikoConfig, type FurikoConfig } from '../furiko/config.js';
import { CronBook } from './cron-book.js';
import { scheduleRuleOf } from './schedule-rule.js';
import { nextWithinConstraints, registrationTime } from './schedule-time.js';

const ref = { namespace: 'default', name: 'jc' };
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z'));

/** Registration at `now`, then `count - 1` bumps; `undefined` marks "none". */
function sequence(schedule: ScheduleSpec, now: string, count: number, lastScheduled?: string, config: FurikoConfig = defaultFurikoConfig): Array<string | undefined> {
  const rule = scheduleRuleOf(ref, schedule, config)!;
  const out: Array<string | undefined> = [];
  let next = registrationTime(rule, Date.parse(now), lastScheduled ? Date.parse(lastScheduled) : undefined, config.maxDowntimeThresholdSeconds);
  out.push(iso(next));
  while (out.length < count && next !== undefined) {
    next = nextWithinConstraints(rule, next);
    out.push(iso(next));
  }
  return out;
}

const now = '2021-02-09T04:06:13.234Z';
const d = (hhmm: string, day = '09'): string => `2021-02-${day}T${hhmm}:00Z`;
const cron = (expression: string, timezone?: string): ScheduleSpec => ({ cron: { expression, ...(timezone ? { timezone } : {}) } });

describe('schedule sequences (upstream cronschedule tests)', () => {
  it('* * * * * from now', () => {
    expect(sequence(cron('* * * * *'), now, 3)).toEqual([d('04:07'), d('04:08'), d('04:09')]);
  });

  it('a one-off 2021 schedule, then none', () => {
    expect(sequence(cron('0 12 9 2 * 2021'), now, 2)).toEqual([d('12:00'), undefined]);
  });

  it('nothing when lastScheduled already is the only instant', () => {
    expect(sequence(cron('15 6 28 10 * 2021', 'Asia/Singapore'), '2021-10-27T22:00:00Z', 1, '2021-10-27T22:15:00Z')).toEqual([undefined]);
  });

  it('back-schedules from lastScheduled, at most 300 s back', () => {
    expect(sequence(cron('* * * * *'), now, 4, d('04:02'))).toEqual([d('04:03'), d('04:04'), d('04:05'), d('04:06')]);
    expect(sequence(cron('* * * * *'), now, 5, d('02:46'))).toEqual([d('04:02'), d('04:03'), d('04:04'), d('04:05'), d('04:06')]);
  });

  it('uses the JobConfig time zone (Asia/Ho_Chi_Minh odd hours)', () => {
    const schedule = cron('0 0 1/2 1/1 * ? *', 'Asia/Ho_Chi_Minh');
    expect(sequence(schedule, '2021-02-08T20:07:00Z', 3)).toEqual(['2021-02-08T22:00:00Z', '2021-02-09T00:00:00Z', '2021-02-09T02:00:00Z']);
    expect(sequence(schedule, '2021-06-24T09:19:40Z', 1, '2021-06-24T09:00:00Z')).toEqual(['2021-06-24T10:00:00Z']);
  });

  it('honours lastUpdated, notBefore and notAfter', () => {
    const every = (extra: Partial<ScheduleSpec>): ScheduleSpec => ({ ...cron('* * * * *'), ...extra });
    expect(sequence(every({ lastUpdated: now }), now, 3, d('02:46'))).toEqual([d('04:07'), d('04:08'), d('04:09')]);
    expect(sequence(every({ constraints: { notBefore: d('04:02', '10') } }), now, 3)).toEqual([d('04:02', '10'), d('04:03', '10'), d('04:04', '10')]);
    expect(sequence(every({ constraints: { notBefore: d('04:02', '10') } }), now, 3, d('04:02'))).toEqual([d('04:02', '10'), d('04:03', '10'), d('04:04', '10')]);
    expect(sequence(every({ constraints: { notBefore: d('04:01') }, lastUpdated: now }), now, 3, d('04:02'))).toEqual([d('04:07'), d('04:08'), d('04:09')]);
    expect(sequence(every({ constraints: { notBefore: d('04:02', '10') }, lastUpdated: now }), now, 3)).toEqual([d('04:02', '10'), d('04:03', '10'), d('04:04', '10')]);
    expect(sequence(every({ constraints: { notAfter: d('04:08') } }), now, 3)).toEqual([d('04:07'), d('04:08'), undefined]);
    expect(sequence(every({ constraints: { notAfter: d('04:08') } }), now, 7, d('04:02'))).toEqual([d('04:03'), d('04:04'), d('04:05'), d('04:06'), d('04:07'), d('04:08'), undefined]);
    expect(sequence(every({ constraints: { notAfter: d('04:08') }, lastUpdated: now }), now, 3, d('04:02'))).toEqual([d('04:07'), d('04:08'), undefined]);
  });

  it('takes the earliest over several expressions, collapsing duplicates', () => {
    const two: ScheduleSpec = { cron: { expressions: ['0/5 10-18 * * *', '0 0-9,19-23 * * *'] } };
    const three: ScheduleSpec = { cron: { expressions: ['0/5 10-18 * * *', '0 * * * *', '0/5 10-18 * * *'] } };
    for (const schedule of [two, three]) {
      expect(sequence(schedule, '2021-02-09T18:47:35Z', 5)).toEqual([d('18:50'), d('18:55'), d('19:00'), d('20:00'), d('21:00')]);
      expect(sequence(schedule, '2021-02-09T07:59:59Z', 5)).toEqual([d('08:00'), d('09:00'), d('10:00'), d('10:05'), d('10:10')]);
    }
  });
});

describe('CronBook (upstream cron worker tests)', () => {
  const t = (hhmmss: string, day = '01'): number => Date.parse(`2022-04-${day}T${hhmmss}Z`);
  const jobConfig = (schedule: ScheduleSpec, name = 'jc'): JobConfig => ({
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'JobConfig',
    metadata: { namespace: 'default', name },
    spec: { template: { spec: { taskTemplate: {} } }, concurrency: { policy: 'Allow' }, schedule },
  });
  const tick = (book: CronBook, at: number): string[] => {
    book.tick(at);
    return book.takeDue('default/jc').map((ms) => iso(ms)!.slice(11, 19));
  };

  it('enqueues due times, catches up after a jump, follows an edit and forgets a deleted JobConfig', () => {
    const book = new CronBook(defaultFurikoConfig);
    book.register(jobConfig(cron('* * * * *')), t('10:52:04'));
    expect(tick(book, t('10:52:59'))).toEqual([]);
    expect(tick(book, t('10:53:00'))).toEqual(['10:53:00']);
    expect(tick(book, t('10:53:01'))).toEqual([]);
    book.refresh(jobConfig(cron('0/15 * * * * * *')), t('10:53:10'));
    expect(tick(book, t('10:53:11'))).toEqual([]);
    expect(tick(book, t('10:53:15'))).toEqual(['10:53:15']);
    book.refresh(jobConfig(cron('* * * * *')), t('10:53:20'));
    expect(tick(book, t('10:54:00'))).toEqual(['10:54:00']);
    expect(tick(book, t('10:57:00'))).toEqual(['10:55:00', '10:56:00', '10:57:00']);
    book.remove('default/jc');
    expect(tick(book, t('11:00:00'))).toEqual([]);
    expect(book.nextTickMs(t('11:00:00'))).toBeUndefined();
  });

  it('limits catch-up to maxMissedSchedules', () => {
    const book = new CronBook({ ...defaultFurikoConfig, maxMissedSchedules: 3 });
    book.register(jobConfig(cron('* * * * *')), t('10:52:04'));
    expect(tick(book, t('10:53:00'))).toEqual(['10:53:00']);
    expect(tick(book, t('10:59:00'))).toEqual(['10:54:00', '10:55:00', '10:56:00']);
    expect(tick(book, t('11:00:00'))).toEqual(['11:00:00']);
  });

  it('resolves the time zone: the JobConfig own, else the default timezone', () => {
    const at = (config: FurikoConfig, schedule: ScheduleSpec): string | undefined => {
      const book = new CronBook(config);
      book.register(jobConfig(schedule), t('10:52:04'));
      return iso(book.nextScheduleMs('default/jc'));
    };
    expect(at(defaultFurikoConfig, cron('0 10 * * *'))).toBe('2022-04-02T10:00:00Z');
    const newYork = { ...defaultFurikoConfig, defaultTimezone: 'America/New_York' };
    expect(at(newYork, cron('0 10 * * *'))).toBe('2022-04-01T14:00:00Z');
    expect(at(newYork, cron('0 10 * * *', 'Asia/Singapore'))).toBe('2022-04-02T02:00:00Z');
  });

  it('keeps disabled, unparsable and finished schedules out of the heap, reporting why', () => {
    const reasons: string[] = [];
    const book = new CronBook(defaultFurikoConfig, (info) => reasons.push(`${info.key}:${info.reason}`));
    book.register(jobConfig({ ...cron('* * * * *'), disabled: true }, 'off'), t('10:00:00'));
    book.register(jobConfig(cron('61 * * * *'), 'bad'), t('10:00:00'));
    book.register(jobConfig(cron('0 12 9 2 * 2021'), 'past'), t('10:00:00'));
    expect(reasons).toEqual(['default/off:none', 'default/bad:invalid', 'default/past:finished']);
    expect(book.nextTickMs(t('10:00:00'))).toBeUndefined();
  });

  it('wakes at the earliest entry, or at the next whole second when it is already due', () => {
    const book = new CronBook(defaultFurikoConfig);
    book.register({ ...jobConfig(cron('* * * * *')), status: { state: 'ReadyEnabled', active: 0, queued: 0, lastScheduled: '2022-04-01T10:50:00Z' } }, t('10:52:04.5'));
    expect(book.nextScheduleMs('default/jc')).toBe(t('10:51:00'));
    expect(book.nextTickMs(t('10:52:04.5'))).toBe(t('10:52:05'));
    expect(tick(book, t('10:52:05'))).toEqual(['10:51:00', '10:52:00']);
    expect(book.nextTickMs(t('10:52:05'))).toBe(t('10:53:00'));
  });
});
