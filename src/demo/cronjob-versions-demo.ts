/**
 * The multiversion part of the demo (examples/cronjob, the kubebuilder book's multiversion tutorial): the
 * CronJob sample, written in v1 (the storage version), read as v2 with kubectl — the local API server asks
 * the manager's /convert webhook, which splits v1's schedule string into v2's cron fields — and the check
 * that v2 shows the schedule `*\/1 * * * *` as `{minute: "*\/1"}`.
 */
import type { TestEnv } from '../testing/index.js';

type Kubectl = (env: TestEnv, args: string[]) => Promise<void>;

const V2_RESOURCE = 'cronjobs.v2.batch.tutorial.kubebuilder.io';

/** `kubectl get cronjobs.v2.batch.tutorial.kubebuilder.io cronjob-sample -o yaml`, with a line saying what it shows. */
export async function showCronJobAsV2(env: TestEnv, kubectl: Kubectl): Promise<void> {
  console.log('\n── the CronJob sample was written in v1 (the storage version); read as v2, the API server converts it through the manager\'s /convert webhook (v2 holds the schedule as cron fields)');
  await kubectl(env, ['get', V2_RESOURCE, 'cronjob-sample', '-n', 'default', '-o', 'yaml']);
}

/** The summary line: cronjob-sample read in v2 has the tutorial's split schedule, and the v1 string back in v1. */
export async function cronJobV2Check(env: TestEnv): Promise<{ met: boolean; line: string }> {
  const read = async (resource: string): Promise<{ apiVersion?: string; spec?: { schedule?: unknown } }> => {
    const result = await env.kubectl(['get', resource, 'cronjob-sample', '-n', 'default', '-o', 'json']);
    return result.code === 0 ? JSON.parse(result.stdout) : {};
  };
  const [v2, v1] = [await read(V2_RESOURCE), await read('cronjobs.v1.batch.tutorial.kubebuilder.io')];
  const v2Schedule = JSON.stringify(v2.spec?.schedule);
  const met = v2.apiVersion === 'batch.tutorial.kubebuilder.io/v2' && v2Schedule === '{"minute":"*/1"}' && v1.spec?.schedule === '*/1 * * * *';
  return { met, line: `CronJob cronjob-sample read as v2: schedule ${v2Schedule ?? 'missing'} (v1: ${JSON.stringify(v1.spec?.schedule)}), converted by the manager's conversion webhook` };
}
