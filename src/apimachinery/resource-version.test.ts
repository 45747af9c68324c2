/** resourceVersions compared as kubeforge's servers write them (decimal integers), anything else not comparable. */
import { compareResourceVersions, isComparableResourceVersion } from './resource-version.js';

test('equal digits are equal, leading zeros aside', () => {
  expect(compareResourceVersions('100', '100')).toBe(0);
  expect(compareResourceVersions('0100', '100')).toBe(0);
  expect(compareResourceVersions('0', '000')).toBe(0);
});

test('lengths differ: the longer number is the larger, past what a double holds exactly', () => {
  expect(compareResourceVersions('99', '100')).toBe(-1);
  expect(compareResourceVersions('100', '99')).toBe(1);
  expect(compareResourceVersions('9', '00010')).toBe(-1);
  expect(compareResourceVersions('123456789012345678901', '123456789012345678902')).toBe(-1);
  expect(compareResourceVersions('1234567890123456789012', '999999999999999999999')).toBe(1);
});

test('same length: the first differing digit decides', () => {
  expect(compareResourceVersions('1205', '1250')).toBe(-1);
  expect(compareResourceVersions('1250', '1205')).toBe(1);
});

test('absent, empty or non-numeric resourceVersions are not comparable', () => {
  for (const [a, b] of [
    [undefined, '1'],
    ['1', undefined],
    ['', '1'],
    ['abc', '100'],
    ['100', '10a'],
    ['-1', '1'],
    ['1.5', '2'],
    [' 1', '1'],
  ] as const) {
    expect({ a, b, order: compareResourceVersions(a, b) }).toEqual({ a, b, order: undefined });
  }
  expect(isComparableResourceVersion('42')).toBe(true);
  expect(isComparableResourceVersion('4x2')).toBe(false);
  expect(isComparableResourceVersion('')).toBe(false);
  expect(isComparableResourceVersion(undefined)).toBe(false);
});
