/**
 * `make deploy` of examples/eventjob on the local cluster (e2e/deploy/deploy-proof.ts): the built-in CronJob
 * `hello` of the samples runs on the cluster clock (stepped a minute at a time); when its Job completes,
 * the in-cluster manager answers the event with the EventJob's Job.
 */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('eventjob', {
  reconciledStepMs: 20_000,
  reconciled: async ({ kubectl }) => {
    const jobs = JSON.parse(await kubectl.ok(['get', 'jobs.batch', '-n', 'default', '-o', 'json'])).items as any[];
    return jobs.find((j) => j.metadata.ownerReferences?.some((o: any) => o.controller && o.kind === 'EventJob' && o.name === 'eventjob-sample'))?.metadata.name;
  },
});
