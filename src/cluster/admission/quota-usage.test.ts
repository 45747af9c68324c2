/** What objects count against a ResourceQuota, and which pods a scoped quota covers. */
import { formatQuantity } from './resource-quantities.js';
import { quotaMatches, usageOf } from './quota-usage.js';

const text = (u: Record<string, { num: bigint; exp: number; text: string }>): Record<string, string> =>
  Object.fromEntries(Object.entries(u).map(([k, v]) => [k, formatQuantity(v as never)]));
const core = (resource: string) => ({ group: '', resource });
const pod = (spec: Record<string, any>, phase = 'Running') => ({ metadata: { name: 'p' }, spec, status: { phase } });

test('a pod counts pods, count/pods and its requests and limits (init containers as a maximum)', () => {
  const p = pod({
    containers: [
      { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } } },
      { name: 'b', resources: { requests: { cpu: '300m', memory: '64Mi' }, limits: { cpu: '200m' } } },
    ],
    initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }],
  });
  expect(text(usageOf(core('pods'), p))).toEqual({
    'count/pods': '1', pods: '1', cpu: '1', 'requests.cpu': '1', memory: '128Mi', 'requests.memory': '128Mi', 'limits.cpu': '400m',
  });
});

test('a finished pod still counts as an object but no longer as a pod or compute', () => {
  expect(text(usageOf(core('pods'), pod({ containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] }, 'Succeeded')))).toEqual({ 'count/pods': '1' });
});

test('object counts for any kind, legacy names for core kinds, services and claims by type', () => {
  expect(text(usageOf({ group: 'apps', resource: 'deployments' }, { metadata: { name: 'o' } }))).toEqual({ 'count/deployments.apps': '1' });
  expect(text(usageOf(core('configmaps'), { metadata: { name: 'o' } }))).toEqual({ 'count/configmaps': '1', configmaps: '1' });
  expect(text(usageOf(core('services'), { metadata: { name: 'o' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] } }))).toEqual({
    'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '2',
  });
  expect(text(usageOf(core('persistentvolumeclaims'), { metadata: { name: 'o' }, spec: { storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } } }))).toEqual({
    'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi',
    'standard.storageclass.storage.k8s.io/persistentvolumeclaims': '1', 'standard.storageclass.storage.k8s.io/requests.storage': '1Gi',
  });
});

test('scopes: Terminating, BestEffort and PriorityClass through scopeSelector; other kinds never match a scoped quota', () => {
  const quota = (spec: Record<string, any>) => ({ metadata: { name: 'o' }, spec: { hard: { pods: '1' }, ...spec } });
  const bestEffort = pod({ containers: [{ name: 'a' }] });
  const terminating = pod({ activeDeadlineSeconds: 10, containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] });
  expect(quotaMatches(quota({ scopes: ['BestEffort'] }), core('pods'), bestEffort)).toBe(true);
  expect(quotaMatches(quota({ scopes: ['BestEffort'] }), core('pods'), terminating)).toBe(false);
  expect(quotaMatches(quota({ scopes: ['Terminating', 'NotBestEffort'] }), core('pods'), terminating)).toBe(true);
  const high = quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
  expect(quotaMatches(high, core('pods'), pod({ priorityClassName: 'high', containers: [] }))).toBe(true);
  expect(quotaMatches(high, core('pods'), pod({ priorityClassName: 'low', containers: [] }))).toBe(false);
  expect(quotaMatches(quota({ scopes: ['BestEffort'] }), core('configmaps'), { metadata: { name: 'o' } })).toBe(false);
  expect(quotaMatches(quota({}), core('configmaps'), { metadata: { name: 'o' } })).toBe(true);
});
