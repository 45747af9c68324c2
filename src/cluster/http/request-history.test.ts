/**
 * The request history stays bounded under churn: the ring keeps its size, and the per-identity
 * activities grow with distinct things done, not with requests.
 */
import { RequestHistory } from './request-history.js';
import type { RequestLogEntry } from './request-log.js';

const entry = (i: number, over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  time: new Date(0).toISOString(), user: 'churner', groups: [], method: 'GET', path: `/api/v1/namespaces/default/configmaps/cm-${i}`,
  verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: `cm-${i}`, code: 200, ...over,
});

test('100 000 requests keep the ring at its size and one activity per distinct verb and resource', () => {
  const history = new RequestHistory(1_000);
  for (let i = 0; i < 100_000; i++) {
    const e = entry(i);
    history.begin(e);
    history.finish(e);
  }
  const entries = history.entries();
  expect(entries.length).toBe(1_000);
  expect(entries[0]!.name).toBe('cm-99000');
  expect(entries[999]!.name).toBe('cm-99999');
  const activities = history.activitiesOf('churner');
  expect(activities.length).toBe(1);
  expect(activities[0]).toMatchObject({ outcome: 'allowed', verb: 'get', resource: 'configmaps', count: 100_000, namesOverflow: true });
  expect(activities[0]!.names.size).toBe(1_000);
});

test('an entry counts once, with the outcome it finished with, and is seen while in flight', () => {
  const history = new RequestHistory(10);
  const e = entry(1, { code: 0 });
  history.begin(e);
  expect(history.activitiesOf('churner').map((a) => a.outcome)).toEqual(['allowed']);
  e.code = 403;
  history.finish(e);
  history.finish(e);
  expect(history.activitiesOf('churner')).toEqual([expect.objectContaining({ outcome: 'denied', count: 1 })]);
});

test('a size of 0 keeps no entries but still counts activity', () => {
  const history = new RequestHistory(0);
  history.add(entry(1));
  expect(history.entries()).toEqual([]);
  expect(history.activitiesOf('churner')).toHaveLength(1);
});
