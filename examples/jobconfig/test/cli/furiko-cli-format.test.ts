/**
 * The pure parts of the `furiko` CLI: the start policy of `run`'s flags and the Job it builds, Furiko's
 * time and duration texts, and the table layout.
 */
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { jobSections } from '../../cmd/furiko/describe.js';
import { renderDescription, renderObjects, renderTable } from '../../cmd/furiko/printers.js';
import { adhocJob, startPolicyOf } from '../../cmd/furiko/run-command.js';
import { ms, startedJob, task } from '../job-fixtures.js';
import { durationInWords, formatTime, formatTimeWithAgo, parseGoDuration, timeAgo } from '../../cmd/furiko/time-format.js';

const NOW = new Date('2026-11-27T10:00:00Z');

describe('run: start policy and the ad-hoc Job', () => {
  it('--at and --after set startAfter (in UTC) and imply Enqueue; --enqueue and --concurrency-policy set the policy', () => {
    expect(startPolicyOf({ option: [], interactive: false }, NOW)).toBeUndefined();
    expect(startPolicyOf({ option: [], interactive: false, at: '2026-12-01T08:00:00+08:00' }, NOW)).toEqual({
      concurrencyPolicy: 'Enqueue',
      startAfter: '2026-12-01T00:00:00Z',
    });
    expect(startPolicyOf({ option: [], interactive: false, after: '1h30m', concurrencyPolicy: 'Forbid' }, NOW)).toEqual({
      concurrencyPolicy: 'Forbid',
      startAfter: '2026-11-27T11:30:00Z',
    });
    expect(startPolicyOf({ option: [], interactive: false, enqueue: true }, NOW)).toEqual({ concurrencyPolicy: 'Enqueue' });
  });

  it('refuses bad or conflicting flags, naming them', () => {
    const bad = (extra: object) => () => startPolicyOf({ option: [], interactive: false, ...extra }, NOW);
    expect(bad({ concurrencyPolicy: 'Replace' })).toThrow('invalid value for --concurrency-policy, valid values: [Allow Forbid Enqueue]');
    expect(bad({ enqueue: true, concurrencyPolicy: 'Allow' })).toThrow('cannot specify both --enqueue and --concurrency-policy together');
    expect(bad({ at: '2026-12-01T08:00:00+08:00', after: '5m' })).toThrow('cannot specify both --after and --at together');
    expect(bad({ at: 'tomorrow' })).toThrow('invalid value for --at: cannot parse tomorrow as RFC3339 timestamp: parsing time "tomorrow"');
    expect(bad({ after: '5 minutes' })).toThrow('invalid value for --after: cannot parse 5 minutes as duration');
  });

  it("builds the Job as Furiko's CLI: generateName <jobconfig>-, configName, type Adhoc, optionValues as compact JSON with sorted keys", () => {
    const jobConfig = { metadata: { name: 'report', namespace: 'team' } } as JobConfig;
    expect(adhocJob(jobConfig, { option: [], interactive: false }, { z: 1, a: ['x'] }, NOW)).toEqual({
      apiVersion: 'execution.furiko.io/v1alpha1',
      kind: 'Job',
      metadata: { generateName: 'report-', namespace: 'team' },
      spec: { configName: 'report', type: 'Adhoc', optionValues: '{"a":["x"],"z":1}' },
    });
    expect(adhocJob(jobConfig, { option: [], interactive: false, name: 'once' }, {}, NOW).metadata).toEqual({ name: 'once', namespace: 'team' });
    expect(() => adhocJob(jobConfig, { option: [], interactive: false, name: 'a', generateName: 'b' }, {}, NOW)).toThrow(
      'cannot specify both --name and --generate-name together',
    );
  });
});

describe("Furiko's time texts", () => {
  const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

  it('shorthand ages for tables, rounded, carried to the next period; in the future with "in "', () => {
    expect([
      timeAgo(undefined, NOW.getTime()),
      timeAgo(ago(400), NOW.getTime()),
      timeAgo(ago(44_000), NOW.getTime()),
      timeAgo(ago(59_600), NOW.getTime()),
    ]).toEqual(['', '0s', '44s', '1m']);
    expect([timeAgo(ago(150 * 60_000), NOW.getTime()), timeAgo(ago(3 * 86_400_000), NOW.getTime()), timeAgo(ago(-120_000), NOW.getTime())]).toEqual([
      '3h',
      '3d',
      'in 2m',
    ]);
  });

  it('durations in words, and Go\'s "Mon, 02 Jan 2006 15:04:05 -07:00" with the time ago', () => {
    expect([durationInWords(500), durationInWords(1_000), durationInWords(150_000), durationInWords(3_600_000)]).toEqual([
      'about a second',
      'about a second',
      '3 minutes',
      'about an hour',
    ]);
    expect(formatTime('2026-11-27T10:00:00Z', 'Asia/Singapore')).toBe('Fri, 27 Nov 2026 18:00:00 +08:00');
    expect(formatTime('2026-07-04T00:05:09Z', 'America/New_York')).toBe('Fri, 03 Jul 2026 20:05:09 -04:00');
    expect(formatTime('2026-11-27T10:00:00Z', 'UTC')).toBe('Fri, 27 Nov 2026 10:00:00 +00:00');
    expect(formatTimeWithAgo('2026-11-27T09:57:00Z', NOW.getTime(), 'Asia/Singapore')).toBe('Fri, 27 Nov 2026 17:57:00 +08:00 (3 minutes ago)');
    expect(formatTimeWithAgo('2026-11-27T12:00:00Z', NOW.getTime(), 'UTC')).toBe('Fri, 27 Nov 2026 12:00:00 +00:00 (in 2 hours)');
  });

  it('Go durations', () => {
    expect([
      parseGoDuration('15m'),
      parseGoDuration('1h30m'),
      parseGoDuration('1.5s'),
      parseGoDuration('0'),
      parseGoDuration('5'),
      parseGoDuration('m'),
    ]).toEqual([900_000, 5_400_000, 1_500, 0, undefined, undefined]);
  });
});

describe('layouts', () => {
  it('tables: columns as wide as their widest cell, three spaces apart, no trailing blanks', () => {
    expect(
      renderTable(
        ['NAME', 'PHASE', 'START TIME'],
        [
          ['job-a', 'Running', '5m'],
          ['j', 'Queued', ''],
        ],
      ),
    ).toBe('NAME    PHASE     START TIME\njob-a   Running   5m\nj       Queued\n');
  });

  it('descriptions: upper-case headers, keys padded per section, empty sections left out, cyan only on a terminal', () => {
    const sections = [
      {
        name: 'Job Info',
        pairs: [
          ['Name', 'a'],
          ['Concurrency Policy', 'Allow'],
        ] as Array<[string, string]>,
      },
      { name: 'Empty', pairs: [] },
      { name: 'Job Status', pairs: [['State', 'Running']] as Array<[string, string]> },
    ];
    expect(renderDescription(sections, false)).toBe('JOB INFO\nName:                a\nConcurrency Policy:  Allow\n\nJOB STATUS\nState:  Running\n');
    expect(renderDescription(sections, true)).toContain('\u001b[36mJOB INFO\u001b[0m\n');
  });

  it("-o name and -o json (one object as itself, a list command's result as a List)", () => {
    const job = { kind: 'Job', metadata: { name: 'a', managedFields: [{}] } };
    expect(renderObjects('name', [job], true)).toBe('job.execution.furiko.io/a\n');
    expect(JSON.parse(renderObjects('json', [job], false))).toEqual({ kind: 'Job', metadata: { name: 'a' } });
    expect(JSON.parse(renderObjects('json', [job], true))).toMatchObject({ apiVersion: 'v1', kind: 'List', items: [{ kind: 'Job' }] });
  });
});

describe('get job on a parallel Job', () => {
  const job = startedJob({ parallelism: { withKeys: ['a', 'b', 'c'], completionStrategy: 'AnySuccessful' } });
  job.status!.tasks = [
    task('j-aaaaaa-0', { created: '10:00:00', running: '10:00:05', finished: '10:01:00', result: 'Succeeded' }),
    task('j-bbbbbb-0', { created: '10:00:00', running: '10:00:05' }),
  ];
  job.status!.parallelStatus = {
    complete: false,
    indexes: [
      { index: { indexKey: 'a' }, hash: 'aaaaaa', createdTasks: 1, state: 'Terminated', result: 'Succeeded' },
      { index: { indexKey: 'b' }, hash: 'bbbbbb', createdTasks: 1, state: 'Running' },
      { index: { indexKey: 'c' }, hash: 'cccccc', createdTasks: 0, state: 'NotCreated' },
    ],
  };
  const names = (detailed: boolean) => jobSections(job, ms('10:02:00'), detailed).map((section) => section.name);

  it('shows the Parallel Task Summary (counts by index state) and no Latest Task', () => {
    expect(names(false)).toEqual(['Job Info', 'Job Status', 'Parallel Task Summary']);
    expect(jobSections(job, ms('10:02:00'))[2].pairs).toEqual([
      ['Complete', 'No'],
      ['Completion Strategy', 'AnySuccessful'],
      ['Status', '1 Pending Creation / 1 Running / 1 Succeeded'],
    ]);
  });

  it('-o detail adds a section per index and per task', () => {
    expect(names(true)).toEqual([
      'Job Info',
      'Job Status',
      'Parallel Task Summary',
      'Parallel Task Group 1 Detail',
      'Parallel Task Group 2 Detail',
      'Parallel Task Group 3 Detail',
      'Task 1 Detail',
      'Task 2 Detail',
    ]);
    const sections = jobSections(job, ms('10:02:00'), true);
    expect(sections[3].pairs).toEqual([
      ['Group Hash', 'aaaaaa'],
      ['Index Key', 'a'],
      ['Created Tasks', '1'],
      ['State', 'Terminated'],
      ['Result', 'Succeeded'],
    ]);
    expect(sections[6].pairs.map(([key]) => key)).toEqual(['Name', 'Created', 'State', 'Started', 'Finished']);
  });
});
