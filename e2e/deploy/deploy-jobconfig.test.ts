/**
 * `make deploy` of examples/jobconfig on the local cluster (e2e/deploy/deploy-proof.ts), with config/default's
 * [CERTMANAGER] sections enabled: the ad-hoc sample Job's task Pod is made by the in-cluster manager, and
 * the validating webhook, called through webhook-service, denies a JobConfig name over 49 characters.
 */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('jobconfig', {
  reconciled: async ({ kubectl }) => {
    const pods = (await kubectl.ok(['get', 'pods', '-n', 'default', '-o', 'name'])).split('\n').filter((n) => /^pod\/job-sample-[a-z0-9]{6}-0$/.test(n));
    return pods[0];
  },
  webhooks: async ({ kubectl }) => {
    const name = `a${'b'.repeat(49)}`;
    const denied = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', metadata: { name, namespace: 'default' }, spec: { concurrency: { policy: 'Allow' }, template: { spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } } } } }));
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('denied the request');
    expect(denied.stderr).toContain(`metadata.name: Invalid value: "${name}": cannot be more than 49 characters`);
  },
});
