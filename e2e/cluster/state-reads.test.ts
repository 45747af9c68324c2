/** state-reads.ts: which API path a `kubectl get` argument list reads, and the arguments it refuses. */
import { batchKinds } from '../../src/cluster/registry/builtin/batch-kinds.js';
import { coreKinds } from '../../src/cluster/registry/builtin/core-kinds.js';
import { coreEvents, newEvents } from '../../src/cluster/registry/builtin/event-kinds.js';
import { ResourceCatalog } from '../../src/cluster/registry/resource-catalog.js';
import { getPath } from './state-reads.js';

const catalog = new ResourceCatalog([...coreKinds, coreEvents, ...batchKinds, newEvents]);

test('plural, singular, short name and kind resolve to the path kubectl reads; default namespace unless -n', () => {
  expect(getPath(catalog, ['get', 'pods'])).toBe('/api/v1/namespaces/default/pods');
  expect(getPath(catalog, ['get', 'pod', 'web-0', '-n', 'apps'])).toBe('/api/v1/namespaces/apps/pods/web-0');
  expect(getPath(catalog, ['get', 'po', '-l', 'app=web'])).toBe('/api/v1/namespaces/default/pods?labelSelector=app%3Dweb');
  expect(getPath(catalog, ['get', 'Job', 'j'])).toBe('/apis/batch/v1/namespaces/default/jobs/j');
  expect(getPath(catalog, ['get', 'node', 'n1', '-n', 'ignored'])).toBe('/api/v1/nodes/n1');
});

test('events: the core group unless the name says events.k8s.io', () => {
  expect(getPath(catalog, ['get', 'events', '--field-selector', 'involvedObject.name=x'])).toBe('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dx');
  expect(getPath(catalog, ['get', 'events.v1.events.k8s.io'])).toBe('/apis/events.k8s.io/v1/namespaces/default/events');
  expect(getPath(catalog, ['get', 'events.events.k8s.io'])).toBe('/apis/events.k8s.io/v1/namespaces/default/events');
});

test('what it does not read in-process is refused, naming the arguments', () => {
  expect(() => getPath(catalog, ['get', 'widgets'])).toThrow('resource type "widgets" is served by no group: read its path instead');
  expect(() => getPath(catalog, ['get', 'pods', '-o', 'json'])).toThrow('kubectl get argument "-o" is not read in-process: get pods -o json');
  expect(() => getPath(catalog, ['get', 'pod', 'a', 'b'])).toThrow('kubectl get argument "b" is not read in-process: get pod a b');
  expect(() => getPath(catalog, ['describe', 'pods'])).toThrow('not a kubectl get: describe pods');
});
