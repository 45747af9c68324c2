/*
Copyright 2026 The jobconfig Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * What `furiko get` and `furiko list` print for Jobs and JobConfigs, as Furiko's CLI: the list tables
 * (`NAME PHASE START TIME RUN TIME FINISH TIME`; `NAME STATE ACTIVE QUEUED LAST EXECUTED LAST SCHEDULED
 * CRON SCHEDULE`) and the descriptions of `get` (Job Info, Job Status, Parallel Task Summary, Latest Task —
 * or with `-o detail` every task and index; Job Config Metadata, Concurrency, Schedule with the next
 * schedule, Job Status).
 */
import type { Job, ParallelIndexStatus, ParallelStatus, TaskRef } from '../../api/v1alpha1/job_types.js';
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { defaultFurikoConfig } from '../../internal/furiko/config.js';
import { scheduleRuleOf } from '../../internal/schedule/schedule-rule.js';
import type { Section } from './printers.js';
import { durationInWords, formatTimeWithAgo, timeAgo } from './time-format.js';

export const JOB_HEADER = ['NAME', 'PHASE', 'START TIME', 'RUN TIME', 'FINISH TIME'];
export const JOB_CONFIG_HEADER = ['NAME', 'STATE', 'ACTIVE', 'QUEUED', 'LAST EXECUTED', 'LAST SCHEDULED', 'CRON SCHEDULE'];

export function jobRow(job: Job, now: number): string[] {
  const condition = job.status?.condition;
  return [
    job.metadata?.name ?? '',
    job.status?.phase ?? '',
    timeAgo(job.status?.startTime, now),
    timeAgo(condition?.running?.latestRunningTimestamp, now),
    timeAgo(condition?.finished?.finishTime, now),
  ];
}

/** The cron expressions of a JobConfig as one cell (Furiko shows `expression`; several are joined). */
function cronOf(jobConfig: JobConfig): string {
  const cron = jobConfig.spec.schedule?.cron;
  return cron?.expressions?.length ? cron.expressions.join(', ') : (cron?.expression ?? '');
}

export function jobConfigRow(jobConfig: JobConfig, now: number): string[] {
  const status = jobConfig.status;
  return [
    jobConfig.metadata?.name ?? '',
    status?.state ?? '',
    String(status?.active ?? 0),
    String(status?.queued ?? 0),
    timeAgo(status?.lastExecuted, now),
    timeAgo(status?.lastScheduled, now),
    cronOf(jobConfig),
  ];
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** `1 Running / 2 Succeeded`: the tasks by state, Running always shown. */
function taskCounts(tasks: TaskRef[]): string {
  const counts = new Map<string, number>();
  for (const task of tasks) {
    const { state, result } = task.status;
    const label = state === 'Terminated' ? (result ?? 'Terminated') : state === 'Starting' || state === 'Running' || state === 'Killing' ? state : 'Created';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const order = ['Created', 'Starting', 'Running', 'Killing', 'Succeeded', 'Failed', 'Killed', 'Terminated'];
  return order
    .filter((label) => label === 'Running' || (counts.get(label) ?? 0) > 0)
    .map((label) => `${counts.get(label) ?? 0} ${label}`)
    .join(' / ');
}

function withTime(pairs: Array<[string, string]>, key: string, time: string | undefined, now: number): void {
  if (time) pairs.push([key, formatTimeWithAgo(time, now)]);
}

/** `get job`'s sections; `detailed` (`-o detail`) shows every task and parallel index instead of the latest task. */
export function jobSections(job: Job, now: number, detailed = false): Section[] {
  const info: Array<[string, string]> = [
    ['Name', job.metadata?.name ?? ''],
    ['Namespace', job.metadata?.namespace ?? ''],
    ['Type', job.spec.type ?? ''],
    ['Created', formatTimeWithAgo(job.metadata?.creationTimestamp, now)],
  ];
  const owner = job.metadata?.ownerReferences?.find((ref) => ref.controller);
  if (owner?.kind === 'JobConfig') info.push(['Job Config', owner.name]);
  const startPolicy = job.spec.startPolicy;
  withTime(info, 'Start After', startPolicy?.startAfter, now);
  if (startPolicy?.concurrencyPolicy) info.push(['Concurrency Policy', startPolicy.concurrencyPolicy]);

  const status = job.status;
  const statusPairs: Array<[string, string]> = [
    ['State', status?.state ?? ''],
    ['Phase', status?.phase ?? ''],
  ];
  withTime(statusPairs, 'Started', status?.startTime, now);
  if (status?.startTime) statusPairs.push(['Tasks', taskCounts(status.tasks ?? [])]);
  const running = status?.condition?.running;
  if (running?.latestRunningTimestamp) statusPairs.push(['Run Duration', capitalize(durationInWords(now - Date.parse(running.latestRunningTimestamp)))]);
  if (running?.terminatingTasks) statusPairs.push(['Terminating Tasks', String(running.terminatingTasks)]);
  const finished = status?.condition?.finished;
  if (finished) {
    if (finished.latestRunningTimestamp)
      statusPairs.push(['Run Duration', capitalize(durationInWords(Date.parse(finished.finishTime) - Date.parse(finished.latestRunningTimestamp)))]);
    statusPairs.push(['Result', finished.result]);
  }
  const explained = status?.condition?.queueing ?? status?.condition?.waiting ?? finished;
  if (explained?.reason) statusPairs.push(['Reason', explained.reason]);
  if (explained?.message) statusPairs.push(['Message', explained.message]);

  const sections: Section[] = [
    { name: 'Job Info', pairs: info },
    { name: 'Job Status', pairs: statusPairs },
  ];
  if (status?.parallelStatus) sections.push(...parallelSections(job, status.parallelStatus, detailed));
  const tasks = status?.tasks ?? [];
  if (!detailed && !status?.parallelStatus && tasks.length > 0) sections.push({ name: 'Latest Task', pairs: taskPairs(tasks[tasks.length - 1], now) });
  if (detailed) tasks.forEach((task, i) => sections.push({ name: `Task ${i + 1} Detail`, pairs: taskPairs(task, now) }));
  return sections;
}

const yesNo = (value: boolean): string => (value ? 'Yes' : 'No');

/** PARALLEL TASK SUMMARY (and with `detailed` a section per index), as Furiko's `get job`. */
function parallelSections(job: Job, parallel: ParallelStatus, detailed: boolean): Section[] {
  const summary: Array<[string, string]> = [
    ['Complete', yesNo(parallel.complete)],
    ['Completion Strategy', job.spec.template?.parallelism?.completionStrategy ?? 'AllSuccessful'],
  ];
  if (parallel.successful !== undefined) summary.push(['Successful', yesNo(parallel.successful)]);
  const count = (test: (index: ParallelIndexStatus) => boolean): number => parallel.indexes.filter(test).length;
  const counters: Array<[string, number, boolean]> = [
    ['Pending Creation', count((i) => i.state === 'NotCreated'), false],
    ['Starting', count((i) => i.state === 'Starting'), false],
    ['Running', count((i) => i.state === 'Running'), true],
    ['Retry Backoff', count((i) => i.state === 'RetryBackoff'), false],
    ['Succeeded', count((i) => i.state === 'Terminated' && i.result === 'Succeeded'), false],
    ['Failed', count((i) => i.state === 'Terminated' && i.result !== 'Succeeded'), false],
  ];
  summary.push([
    'Status',
    counters
      .filter(([, n, always]) => always || n > 0)
      .map(([label, n]) => `${n} ${label}`)
      .join(' / '),
  ]);
  const sections: Section[] = [{ name: 'Parallel Task Summary', pairs: summary }];
  if (!detailed) return sections;
  parallel.indexes.forEach((index, i) => {
    const pairs: Array<[string, string]> = [['Group Hash', index.hash]];
    if (index.index.indexNumber !== undefined) pairs.push(['Index Number', String(index.index.indexNumber)]);
    else if (index.index.indexKey) pairs.push(['Index Key', index.index.indexKey]);
    else for (const [key, value] of Object.entries(index.index.matrixValues ?? {})) pairs.push([`Matrix Key ${key}`, value]);
    pairs.push(['Created Tasks', String(index.createdTasks)], ['State', index.state]);
    if (index.result) pairs.push(['Result', index.result]);
    sections.push({ name: `Parallel Task Group ${i + 1} Detail`, pairs });
  });
  return sections;
}

function taskPairs(task: TaskRef, now: number): Array<[string, string]> {
  const pairs: Array<[string, string]> = [
    ['Name', task.name],
    ['Created', formatTimeWithAgo(task.creationTimestamp, now)],
    ['State', task.status.state],
  ];
  withTime(pairs, 'Started', task.runningTimestamp, now);
  withTime(pairs, 'Finished', task.finishTimestamp, now);
  if (task.status.reason) pairs.push(['Reason', task.status.reason]);
  if (task.status.message) pairs.push(['Message', task.status.message]);
  return pairs;
}

/** `Next Schedule`: the first cron time after now, with the JobConfig's hash ID and time zone (Never when none). */
function nextSchedule(jobConfig: JobConfig, now: number): string {
  const rule = scheduleRuleOf(
    { namespace: jobConfig.metadata?.namespace ?? '', name: jobConfig.metadata?.name ?? '' },
    jobConfig.spec.schedule,
    defaultFurikoConfig,
  );
  let next = rule?.next(now);
  if (next !== undefined && rule?.notBeforeMs !== undefined && next < rule.notBeforeMs) next = rule.next(rule.notBeforeMs - 1);
  if (next === undefined || (rule?.notAfterMs !== undefined && next > rule.notAfterMs)) return 'Never';
  return formatTimeWithAgo(new Date(next).toISOString(), now);
}

export function jobConfigSections(jobConfig: JobConfig, now: number): Section[] {
  const sections: Section[] = [
    {
      name: 'Job Config Metadata',
      pairs: [
        ['Name', jobConfig.metadata?.name ?? ''],
        ['Namespace', jobConfig.metadata?.namespace ?? ''],
        ['Created', formatTimeWithAgo(jobConfig.metadata?.creationTimestamp, now)],
      ],
    },
    { name: 'Concurrency', pairs: [['Policy', jobConfig.spec.concurrency.policy]] },
  ];
  const schedule = jobConfig.spec.schedule;
  if (schedule) {
    const pairs: Array<[string, string]> = [['Enabled', String(!schedule.disabled)]];
    const cron = cronOf(jobConfig);
    if (schedule.cron) pairs.push(['Cron Expression', cron], ['Cron Timezone', schedule.cron.timezone ?? '']);
    withTime(pairs, 'Not Before', schedule.constraints?.notBefore, now);
    withTime(pairs, 'Not After', schedule.constraints?.notAfter, now);
    if (!schedule.disabled && cron) pairs.push(['Next Schedule', nextSchedule(jobConfig, now)]);
    sections.push({ name: 'Schedule', pairs });
  }
  const status = jobConfig.status;
  sections.push({
    name: 'Job Status',
    pairs: [
      ['State', status?.state ?? ''],
      ['Queued Jobs', String(status?.queued ?? 0)],
      ['Active Jobs', String(status?.active ?? 0)],
      ['Last Scheduled', status?.lastScheduled ? formatTimeWithAgo(status.lastScheduled, now) : 'Never'],
    ],
  });
  return sections;
}
