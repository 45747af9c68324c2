// Kind pluralisation (§11.1): the results controller-gen (flect) gives for Kubernetes-style Kind names.
import { pluralize } from './pluralize.js';

describe('pluralize', () => {
  it.each([
    ['CronJob', 'cronjobs'],
    ['TestQuota', 'testquotas'],
    ['Policy', 'policies'],
    ['Gateway', 'gateways'],
    ['Proxy', 'proxies'],
    ['Status', 'statuses'],
    ['Ingress', 'ingresses'],
    ['Address', 'addresses'],
    ['Index', 'indices'],
    ['Matrix', 'matrices'],
    ['Database', 'databases'],
    ['Cache', 'caches'],
    ['Person', 'people'],
    ['Child', 'children'],
    ['Quota', 'quotas'],
    ['Redis', 'redis'],
    ['Analysis', 'analyses'],
    ['Leaf', 'leaves'],
    ['Knife', 'knives'],
    ['Hero', 'heroes'],
    ['Photo', 'photos'],
    ['ImmutableType', 'immutabletypes'],
    ['VersionedResource', 'versionedresources'],
  ])('%s → %s', (kind, plural) => {
    expect(pluralize(kind).toLowerCase()).toBe(plural);
  });
});
