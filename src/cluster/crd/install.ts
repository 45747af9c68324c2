/**
 * Wires custom resources into a cluster: the CRD kind in the catalog, the CRD controller, apply list
 * semantics from CRD schemas, and the end of open watches when a CRD stops being served.
 */
import type { ClusterInternals } from '../local-cluster.js';
import { builtinListSemantics } from '../patch/field-sets.js';
import { CrdController } from './crd-controller.js';
import { customResourceDefinitions } from './crd-kind.js';

export function installCustomResourceSupport(cluster: ClusterInternals): CrdController {
  cluster.catalog.replace(customResourceDefinitions.group, customResourceDefinitions.resource, [customResourceDefinitions]);
  cluster.operations.listSemanticsFor = (rt) => ('listSemantics' in rt ? (rt as { listSemantics: typeof builtinListSemantics }).listSemantics : builtinListSemantics);
  return new CrdController(cluster, (group, resource, gone) => {
    if (gone) cluster.watches.closeWhere((rt) => rt.group === group && rt.resource === resource);
  });
}
