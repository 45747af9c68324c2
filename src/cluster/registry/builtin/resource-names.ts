/**
 * Resource names in LimitRange and ResourceQuota lists (`cpu`, `requests.memory`, `count/deployments.apps`,
 * `example.com/gpu`): the 1.32 checks — a qualified name, and an unqualified one must be a standard resource.
 */
import { type FieldError, invalid } from '../../errors/field-errors.js';
import { qualifiedNameErrors } from '../object-meta.js';

const standardContainerResources = ['cpu', 'memory', 'ephemeral-storage'];
const standardResources = [
  ...standardContainerResources, 'storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'requests.storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
];

/** Quota-able resources that need no group (helper.IsStandardQuotaResourceName). */
export const standardQuotaResources = [
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
];

const isHugePages = (name: string): boolean => /^(requests\.|limits\.)?hugepages-/.test(name);

/** validateResourceName over the keys of a resource list at `path` (errors at `path[key]`). */
export function validateResourceListNames(list: Record<string, unknown>, path: string, quota = false): FieldError[] {
  const errs: FieldError[] = [];
  for (const name of Object.keys(list)) {
    const at = `${path}[${name}]`;
    const qualified = qualifiedNameErrors(name);
    for (const m of qualified) errs.push(invalid(at, name, m));
    if (qualified.length || name.includes('/')) continue;
    if (quota ? !standardQuotaResources.includes(name) && !isHugePages(name) : !standardResources.includes(name) && !isHugePages(name)) {
      errs.push(invalid(at, name, quota ? 'must be a standard resource for quota' : 'must be a standard resource type or fully qualified'));
    }
  }
  return errs;
}
