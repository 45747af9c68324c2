/** Index hashes against every vector of reference-operators spec §6.3 (checked there against hashstructure v2.0.2). */
import { base32Std, fnv1_64, hashParallelIndex, indexHash } from './index-hash.js';

describe('fnv1_64', () => {
  it('is FNV-1 (not FNV-1a): the published FNV-1 64 vectors', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(fnv1_64(bytes(''))).toBe(0xcbf29ce484222325n);
    expect(fnv1_64(bytes('a'))).toBe(0xaf63bd4c8601b7ben);
    expect(fnv1_64(bytes('foobar'))).toBe(0x340d8765a4dda9c2n);
  });
});

describe('base32Std', () => {
  it('encodes the RFC 4648 test vectors with padding', () => {
    const enc = (s: string) => base32Std(new TextEncoder().encode(s));
    expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map(enc)).toEqual(['', 'MY======', 'MZXQ====', 'MZXW6===', 'MZXW6YQ=', 'MZXW6YTB', 'MZXW6YTBOI======']);
  });
});

describe('indexHash (§6.3)', () => {
  it('hashes the default index {indexNumber: 0} to 12897811645590379685 = gezdqo', () => {
    expect(hashParallelIndex({ indexNumber: 0 })).toBe(12897811645590379685n);
    expect(indexHash({ indexNumber: 0 })).toBe('gezdqo');
  });

  it('hashes index numbers 1…9', () => {
    const hashes = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => indexHash({ indexNumber: n }));
    expect(hashes).toEqual(['gi3dgn', 'geytio', 'ge2tkn', 'haytkm', 'g4ztqn', 'ge3tgm', 'gezdmo', 'haztcm', 'gmytsm']);
  });

  it('hashes index keys', () => {
    expect(['a', 'b', 'c', 'golang', 'python', 'nodejs'].map((k) => indexHash({ indexKey: k }))).toEqual(['gmytcn', 'gu4tsm', 'ge3dso', 'giydmn', 'heydao', 'he4don']);
  });

  it('hashes matrix values independently of key order', () => {
    expect(indexHash({ matrixValues: { goarch: 'amd64', goos: 'linux' } })).toBe('ge3dcm');
    expect(indexHash({ matrixValues: { goos: 'linux', goarch: 'amd64' } })).toBe('ge3dcm');
    expect(indexHash({ matrixValues: { goarch: 'amd64', goos: 'darwin' } })).toBe('haztqm');
    expect(indexHash({ matrixValues: { goarch: 'arm64', goos: 'linux' } })).toBe('ha3don');
    expect(indexHash({ matrixValues: { goarch: 'arm64', goos: 'darwin' } })).toBe('gm3tam');
  });
});

describe('collisions (Q-F5, kept as upstream)', () => {
  it('gives index numbers 58 and 69 the same hash', () => {
    expect(indexHash({ indexNumber: 58 })).toBe('ge3dqm');
    expect(indexHash({ indexNumber: 69 })).toBe('ge3dqm');
  });
});
