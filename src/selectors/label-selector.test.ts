// labelSelectorToString writes a selector as apimachinery's LabelSelectorAsSelector(...).String() does
// (what a Scale's status.selector shows): requirements sorted by key, the values of in/notin sorted.
import { labelSelectorToString, matchesLabels, parseLabelSelector } from './label-selector.js';

test('requirements are sorted by key and set values sorted, whatever the order written', () => {
  const text = labelSelectorToString({
    matchLabels: { tier: 'web', app: 'shop' },
    matchExpressions: [
      { key: 'zone', operator: 'In', values: ['b', 'a'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'env', operator: 'NotIn', values: ['prod', 'dev'] },
      { key: 'backup', operator: 'Exists' },
    ],
  });
  expect(text).toBe('app=shop,backup,!canary,env notin (dev,prod),tier=web,zone in (a,b)');
  expect(matchesLabels(parseLabelSelector(text), { app: 'shop', tier: 'web', backup: 'y', env: 'test', zone: 'a' })).toBe(true);
  expect(matchesLabels(parseLabelSelector(text), { app: 'shop', tier: 'web', backup: 'y', env: 'prod', zone: 'a' })).toBe(false);
});

test('no selector is the empty string', () => {
  expect(labelSelectorToString(undefined)).toBe('');
  expect(labelSelectorToString({})).toBe('');
});
