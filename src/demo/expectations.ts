/**
 * What the demo's run must produce: Jobs (batch/v1, or Furiko's) that a sample custom resource or the
 * built-in CronJob "hello" made, or that must have run, after a given number of virtual minutes.
 */

export interface JobRecord {
  name: string;
  /** `Job` (batch/v1) or `Furiko Job` (execution.furiko.io/v1alpha1). */
  kind: 'Job' | 'Furiko Job';
  /** `Kind name` of the Job's controlling owner, e.g. `AT at-sample`, or `no owner`. */
  owner: string;
  /** Once seen finished: `Complete`/`Failed` (batch/v1), the terminal phase (Furiko: `Succeeded`, …). */
  finished?: string;
}

export interface JobExpectation {
  /** What the summary line names, e.g. `CronJob hello`. */
  label: string;
  /** Which recorded Jobs count, and how the summary counts them. */
  matches: (job: JobRecord) => boolean;
  counted: string;
  atLeast: number;
  why: string;
}

function madeBy(owner: string, atLeast: number, why: string): JobExpectation {
  return { label: owner, matches: (job) => job.kind === 'Job' && job.owner === owner, counted: 'Job(s)', atLeast, why };
}

/**
 * The run starts 5 s after a minute boundary, so `minutes` steps cross `minutes` boundaries: each
 * every-minute schedule fires that many times. An EventJob reacts to a completed "hello" Job within the
 * same minute, so every hello run but possibly the last one triggers it. Furiko's `jobconfig-sample` fires
 * at its hashed quarter-hour offset, which a few minutes may not reach; its ad-hoc `job-sample` runs at once.
 */
export function expectedJobs(operators: string[], minutes: number): JobExpectation[] {
  const expectations: JobExpectation[] = [];
  if (operators.includes('at')) expectations.push(madeBy('AT at-sample', 1, 'its time (2020-03-21T13:53:55Z) is past, so it runs at once'));
  if (operators.includes('eventjob')) {
    expectations.push(madeBy('CronJob hello', minutes, 'the built-in CronJob "* * * * *" runs once a minute'));
    expectations.push(madeBy('EventJob eventjob-sample', Math.max(1, minutes - 1), 'one per completed "hello" Job'));
  }
  if (operators.includes('cronjob')) expectations.push(madeBy('CronJob cronjob-sample', minutes, 'schedule "*/1 * * * *": once a minute'));
  if (operators.includes('jobconfig')) {
    expectations.push({
      label: 'Furiko Job job-sample',
      matches: (job) => job.kind === 'Furiko Job' && job.name === 'job-sample' && job.finished === 'Succeeded',
      counted: 'succeeded',
      atLeast: 1,
      why: 'the ad-hoc sample Job (no JobConfig) starts at once; its task Pod runs and succeeds',
    });
  }
  return expectations;
}
