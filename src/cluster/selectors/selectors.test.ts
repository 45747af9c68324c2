/** Label and field selector parsing and matching, with the real 400 messages. */
import { coreEvents } from '../registry/builtin/event-kinds.js';
import { configMaps, pods } from '../registry/builtin/core-kinds.js';
import { checkFieldSelector, matchesFields, parseFieldSelector } from './field-selector.js';
import { matchesLabels, parseLabelSelector } from './label-selector.js';

test('label selectors: equality, inequality, sets, existence and numeric comparisons', () => {
  const labels = { app: 'web', tier: 'front', n: '7' };
  const m = (s: string): boolean => matchesLabels(parseLabelSelector(s), labels);
  expect(m('app=web,tier==front')).toBe(true);
  expect(m('app!=db')).toBe(true);
  expect(m('missing!=x')).toBe(true);
  expect(m('tier in (front,back)')).toBe(true);
  expect(m('tier notin (front)')).toBe(false);
  expect(m('app,!missing')).toBe(true);
  expect(m('n>5,n<8')).toBe(true);
  expect(() => parseLabelSelector('n>x')).toThrow("unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer");
});

test('field selectors: supported fields per kind, Event involvedObject fields, real errors', () => {
  const event = { metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'CronJob', name: 'hello' }, reason: 'SawCompletedJob' };
  const sel = parseFieldSelector('involvedObject.kind=CronJob,involvedObject.name=hello,reason!=Other');
  checkFieldSelector(coreEvents, sel);
  expect(matchesFields(coreEvents, sel, event)).toBe(true);
  expect(() => checkFieldSelector(pods, parseFieldSelector('spec.foo=x'))).toThrow('field label not supported: spec.foo');
  expect(() => checkFieldSelector(configMaps, parseFieldSelector('data.x=1'))).toThrow('"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
});
