import { describe, expect, it } from '@jest/globals';
import { formatIndexes, missingIndexes, parseIndexes } from './indexed-completion.js';

describe('completed indexes', () => {
  it('round-trips the compressed interval form', () => {
    expect(formatIndexes(new Set([8, 0, 1, 2, 4, 7]))).toBe('0-2,4,7-8');
    expect([...parseIndexes('0-2,4,7-8')]).toEqual([0, 1, 2, 4, 7, 8]);
    expect(formatIndexes(parseIndexes(''))).toBe('');
  });

  it('hands out the lowest indexes neither completed nor running', () => {
    expect(missingIndexes(6, new Set([0, 2]), new Set([1]), 2)).toEqual([3, 4]);
    expect(missingIndexes(3, new Set([0, 1, 2]), new Set(), 5)).toEqual([]);
  });
});
