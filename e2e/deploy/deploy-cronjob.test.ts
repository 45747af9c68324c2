/**
 * `make deploy` of examples/cronjob on the local cluster (e2e/deploy/deploy-proof.ts), with config/default's
 * [CERTMANAGER] sections enabled: the API server calls the in-cluster manager's webhooks through
 * webhook-service with the certificate the cert-manager stand-in issued — a bad schedule is denied, unset
 * fields come back defaulted, and v1 objects read as v2 through the conversion webhook. The sample's first Job is a run missed while the manager was not there (see below).
 */
import { parseDocument } from 'yaml';
import { proveDeploy } from './deploy-proof.js';

const cronJob = (name: string, schedule: string): string => `apiVersion: batch.tutorial.kubebuilder.io/v1
kind: CronJob
metadata: {name: ${name}, namespace: default}
spec:
  schedule: "${schedule}"
  jobTemplate: {spec: {template: {spec: {containers: [{name: hello, image: busybox}], restartPolicy: OnFailure}}}}
`;

proveDeploy('cronjob', {
  // The original's role grants `get jobs/status` (reference-operators.md §1.1 pins its RBAC markers); neither the
  // original's controller nor this one reads the status subresource of a Job (they read Jobs whole).
  unusedRulesKept: [{ apiGroups: ['batch'], resources: ['jobs/status'], verbs: ['get'] }],
  // The manager schedules on its own real clock. With the cluster's clock two minutes behind it, the sample
  // is created "two minutes ago" as the manager sees it, so its every-minute schedule has a run missed within
  // the sample's 60 s starting deadline: the first reconcile starts a Job at once, as the tutorial's
  // controller does after downtime — no wait for the next minute.
  clockBehindMs: 120_000,
  reconciledTimeoutMs: 60_000,
  reconciled: async ({ kubectl }) => {
    const jobs = JSON.parse(await kubectl.ok(['get', 'jobs.batch', '-n', 'default', '-o', 'json'])).items as any[];
    return jobs.find((j) => j.metadata.ownerReferences?.some((o: any) => o.controller && o.kind === 'CronJob' && o.name === 'cronjob-sample'))?.metadata.name;
  },
  webhooks: async ({ kubectl, namespace, prefix }) => {
    const configuration = JSON.parse(await kubectl.ok(['get', 'validatingwebhookconfiguration', `${prefix}validating-webhook-configuration`, '-o', 'json']));
    const secret = JSON.parse(await kubectl.ok(['get', 'secret', 'webhook-server-cert', '-n', namespace, '-o', 'json']));
    expect(configuration.webhooks[0].clientConfig).toMatchObject({ service: { name: `${prefix}webhook-service`, namespace }, caBundle: secret.data['ca.crt'] });
    const denied = await kubectl.run(['apply', '-f', '-'], cronJob('bad-schedule', 'every minute please'));
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('admission webhook "vcronjob-v1.kb.io" denied the request');
    expect(denied.stderr).toContain('spec.schedule: Invalid value: "every minute please"');
    await kubectl.ok(['apply', '-f', '-'], cronJob('defaulted', '*/5 * * * *'));
    const spec = (parseDocument(await kubectl.ok(['get', 'cronjobs.batch.tutorial.kubebuilder.io', 'defaulted', '-n', 'default', '-o', 'yaml'])).toJS() as { spec: Record<string, unknown> }).spec;
    expect({ suspend: spec.suspend, successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit, failedJobsHistoryLimit: spec.failedJobsHistoryLimit }).toEqual({ suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    // The multiversion tutorial: config/crd's conversion patch points the CRD at webhook-service's /convert and
    // cert-manager's CA injection fills its caBundle, so the in-cluster manager converts v1 to v2.
    const conversion = JSON.parse(await kubectl.ok(['get', 'crd', 'cronjobs.batch.tutorial.kubebuilder.io', '-o', 'jsonpath={.spec.conversion}']));
    expect(conversion).toMatchObject({ strategy: 'Webhook', webhook: { clientConfig: { service: { name: `${prefix}webhook-service`, namespace, path: '/convert' }, caBundle: secret.data['ca.crt'] } } });
    const v2 = JSON.parse(await kubectl.ok(['get', 'cronjobs.v2.batch.tutorial.kubebuilder.io', 'defaulted', '-n', 'default', '-o', 'json']));
    expect({ apiVersion: v2.apiVersion, schedule: v2.spec.schedule }).toEqual({ apiVersion: 'batch.tutorial.kubebuilder.io/v2', schedule: { minute: '*/5' } });
    await kubectl.ok(['delete', 'cronjobs.batch.tutorial.kubebuilder.io', 'defaulted', '-n', 'default']);
  },
});
