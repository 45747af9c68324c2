/**
 * The request log is a bounded ring (issue 13: it grew ~425 bytes a request, without end), while the
 * least-privilege report stays exact: it reads per-identity activity counters, not the raw entries.
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ requestLogSize: 50 });
const cms = '/api/v1/namespaces/default/configmaps';

test('the log keeps only the newest requestLogSize entries however many requests arrive', async () => {
  for (let i = 0; i < 300; i++) await suite.call('GET', `${cms}/missing-${i}`);
  const log = suite.cluster.requestLog();
  expect(log.length).toBe(50);
  expect(log[log.length - 1]!.path).toBe(`${cms}/missing-299`);
  expect(log[0]!.path).toBe(`${cms}/missing-250`);
});

test('the least-privilege report still sees what an identity did after its entries left the ring', async () => {
  await suite.kubectl.ok(['create', 'role', 'reader', '--verb=get,list,delete', '--resource=configmaps', '-n', 'default']);
  await suite.kubectl.ok(['create', 'rolebinding', 'reader', '--role=reader', '--user=audited', '-n', 'default']);
  const audited = suite.kubectlAs('audited');
  await audited.ok(['get', 'configmaps', '-n', 'default']);
  expect((await audited.run(['get', 'secrets', '-n', 'default'])).code).toBe(1);
  const before = suite.cluster.leastPrivilegeReport({ user: 'audited' });
  expect(before.used).toContain('list configmaps');
  expect(before.denied).toEqual(['list secrets']);
  expect(before.unusedGrants).toEqual([
    { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] },
    { verbs: ['delete'], apiGroups: [''], resources: ['configmaps'] },
  ]);
  for (let i = 0; i < 120; i++) await suite.call('GET', `${cms}/flood-${i}`);
  expect(suite.cluster.requestLog().some((e) => e.user === 'audited')).toBe(false);
  expect(suite.cluster.leastPrivilegeReport({ user: 'audited' })).toEqual(before);
});
