/** Parallel indexes in Furiko's order and their Pod annotation (reference-operators spec §4.1, §6.3). */
import { generateIndexes, parallelIndexJson, parseParallelIndex } from './parallel-indexes.js';

describe('generateIndexes', () => {
  it('gives the single default index without parallelism', () => {
    expect(generateIndexes(undefined)).toEqual([{ indexNumber: 0 }]);
    expect(generateIndexes({})).toEqual([{ indexNumber: 0 }]);
  });

  it('numbers withCount from 0 and keeps withKeys in order', () => {
    expect(generateIndexes({ withCount: 3 })).toEqual([{ indexNumber: 0 }, { indexNumber: 1 }, { indexNumber: 2 }]);
    expect(generateIndexes({ withKeys: ['golang', 'python'] })).toEqual([{ indexKey: 'golang' }, { indexKey: 'python' }]);
  });

  it('orders a matrix by sorted keys with the last key varying fastest (§6.3)', () => {
    expect(generateIndexes({ withMatrix: { goos: ['linux', 'darwin'], goarch: ['amd64', 'arm64'] } })).toEqual([
      { matrixValues: { goarch: 'amd64', goos: 'linux' } },
      { matrixValues: { goarch: 'amd64', goos: 'darwin' } },
      { matrixValues: { goarch: 'arm64', goos: 'linux' } },
      { matrixValues: { goarch: 'arm64', goos: 'darwin' } },
    ]);
  });
});

describe('parallelIndexJson / parseParallelIndex', () => {
  it("writes Go's JSON (omitempty, sorted map keys) and reads it back", () => {
    expect(parallelIndexJson({ indexNumber: 0 })).toBe('{"indexNumber":0}');
    expect(parallelIndexJson({ indexKey: 'a' })).toBe('{"indexKey":"a"}');
    const matrix = { matrixValues: { goos: 'linux', goarch: 'amd64' } };
    expect(parallelIndexJson(matrix)).toBe('{"matrixValues":{"goarch":"amd64","goos":"linux"}}');
    expect(parseParallelIndex(parallelIndexJson(matrix))).toEqual(matrix);
    expect(parseParallelIndex('not json')).toBeUndefined();
    expect(parseParallelIndex(undefined)).toBeUndefined();
  });
});
