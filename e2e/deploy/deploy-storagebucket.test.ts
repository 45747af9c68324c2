/**
 * `make deploy` of examples/storagebucket on the local cluster (e2e/deploy/deploy-proof.ts): the in-cluster
 * manager, given no --s3-endpoint, starts its own s3rver, probes the sample's bucket there (not made: false,
 * BucketNotFound) under its least-privilege role (read StorageBuckets, patch their status).
 */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('storagebucket', {
  reconciled: async ({ kubectl }) => {
    const r = await kubectl.run(['get', 'storagebucket', 'storagebucket-sample', '-n', 'default', '-o', 'jsonpath={.status.available}/{.status.conditions[?(@.type=="Available")].reason}']);
    if (r.code !== 0 || r.stdout === '/') return undefined;
    expect(r.stdout).toBe('false/BucketNotFound');
    const message = await kubectl.ok(['get', 'storagebucket', 'storagebucket-sample', '-n', 'default', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].message}']);
    // Its s3rver listens on the pod's IP (the local cluster binds a pod's loopback listens there).
    expect(message).toMatch(/^bucket storagebucket-sample does not exist at http:\/\/127\.2\d\d\.0\.\d+:\d+$/);
    return r.stdout;
  },
});
