/** Label selector strings and maps as the cache evaluates them. */
import { parseLabelSelector } from './label-selector.js';

describe('parseLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', env: 'prod' };
  test.each([
    ['app=web', true],
    ['app==web,tier=front', true],
    ['app!=web', false],
    ['app in (web, api)', true],
    ['env notin (prod)', false],
    ['missing notin (x)', true],
    ['tier', true],
    ['!tier', false],
    ['!missing,app in (web),env!=dev', true],
    ['missing!=x', true],
    ['app in (api)', false],
    ['', true],
  ])('%s → %s', (selector, expected) => {
    expect(parseLabelSelector(selector)(labels)).toBe(expected);
  });

  test('a map selector needs every pair; bad syntax is a clear error', () => {
    expect(parseLabelSelector({ app: 'web', tier: 'front' })(labels)).toBe(true);
    expect(parseLabelSelector({ app: 'api' })(labels)).toBe(false);
    expect(parseLabelSelector('app=web')(undefined)).toBe(false);
    expect(() => parseLabelSelector('app in web')).toThrow("unable to parse requirement: found 'app in web', expected: identifier");
  });
});
