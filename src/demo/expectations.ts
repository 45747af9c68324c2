/**
 * What the demo's run must produce: for each owner of Jobs (a sample custom resource or the built-in
 * CronJob "hello"), how many Jobs it must have made after a given number of virtual minutes.
 */

export interface JobRecord {
  name: string;
  /** `Kind name` of the Job's controlling owner, e.g. `AT at-sample`. */
  owner: string;
  /** `Complete` or `Failed` once seen finished. */
  finished?: string;
}

export interface JobExpectation {
  owner: string;
  atLeast: number;
  why: string;
}

/**
 * The run starts 5 s after a minute boundary, so `minutes` steps cross `minutes` boundaries: each
 * every-minute schedule fires that many times. An EventJob reacts to a completed "hello" Job within the
 * same minute, so every hello run but possibly the last one triggers it.
 */
export function expectedJobs(operators: string[], minutes: number): JobExpectation[] {
  const expectations: JobExpectation[] = [];
  if (operators.includes('at')) expectations.push({ owner: 'AT at-sample', atLeast: 1, why: 'its time (2020-03-21T13:53:55Z) is past, so it runs at once' });
  if (operators.includes('eventjob')) {
    expectations.push({ owner: 'CronJob hello', atLeast: minutes, why: 'the built-in CronJob "* * * * *" runs once a minute' });
    expectations.push({ owner: 'EventJob eventjob-sample', atLeast: Math.max(1, minutes - 1), why: 'one per completed "hello" Job' });
  }
  if (operators.includes('cronjob')) expectations.push({ owner: 'CronJob cronjob-sample', atLeast: minutes, why: 'schedule "*/1 * * * *": once a minute' });
  return expectations;
}
