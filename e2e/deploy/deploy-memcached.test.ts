/** `make deploy` of examples/memcached on the local cluster (e2e/deploy/deploy-proof.ts): the in-cluster manager makes the sample's Deployment and reports Available. */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('memcached', {
  reconciled: async ({ kubectl }) => {
    const r = await kubectl.run(['get', 'memcached', 'memcached-sample', '-n', 'default', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].message}']);
    if (r.code !== 0 || r.stdout === '' || r.stdout === 'Starting reconciliation') return undefined;
    expect(r.stdout).toBe('Deployment for custom resource (memcached-sample) with 1 replicas created successfully');
    const owner = await kubectl.ok(['get', 'deployment', 'memcached-sample', '-n', 'default', '-o', 'jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}']);
    expect(owner).toBe('Memcached/memcached-sample');
    return r.stdout;
  },
});
