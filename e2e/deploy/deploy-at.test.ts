/** `make deploy` of examples/at on the local cluster (e2e/deploy/deploy-proof.ts): the sample's instant is past, so the in-cluster manager makes its Job at once. */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('at', {
  reconciled: async ({ kubectl }) => {
    const jobs = JSON.parse(await kubectl.ok(['get', 'jobs.batch', '-n', 'default', '-o', 'json'])).items as any[];
    const owned = jobs.filter((j) => j.metadata.ownerReferences?.some((o: any) => o.controller && o.kind === 'AT' && o.name === 'at-sample'));
    return owned.length === 1 ? owned[0].metadata.name : undefined;
  },
});
