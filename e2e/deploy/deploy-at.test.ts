/** `make deploy` of examples/at on the local cluster (e2e/deploy/deploy-proof.ts): the sample's instant is past, so the in-cluster manager makes its Job at once. */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('at', {
  // The original's role grants `get jobs/status` (reference-operators.md §2.1 pins its RBAC markers); neither the
  // original's controller nor this one reads the status subresource of a Job (they read Jobs whole).
  unusedRulesKept: [{ apiGroups: ['batch'], resources: ['jobs/status'], verbs: ['get'] }],
  reconciled: async ({ kubectl }) => {
    const jobs = JSON.parse(await kubectl.ok(['get', 'jobs.batch', '-n', 'default', '-o', 'json'])).items as any[];
    const owned = jobs.filter((j) => j.metadata.ownerReferences?.some((o: any) => o.controller && o.kind === 'AT' && o.name === 'at-sample'));
    return owned.length === 1 ? owned[0].metadata.name : undefined;
  },
});
