/**
 * The shared `npm pack` (packed-tarball.ts) on a small stand-in checkout with a stand-in pack: callers at
 * the same time pack once and get the same tarball; a change to a packed file (or package.json) makes a new
 * key and a new pack, a change elsewhere does not; a lock left by a killed run is taken over.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packInputsHash, sharedPack } from './packed-tarball.js';

const cache = join(tmpdir(), 'kubeforge-test-cache');

describe('sharedPack', () => {
  let checkout = '';
  const keys = new Set<string>();
  beforeEach(() => {
    checkout = mkdtempSync(join(tmpdir(), 'kubeforge-pack-stand-in-'));
    mkdirSync(join(checkout, 'dist'));
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ name: 'stand-in', files: ['dist', '!dist/demo'], unique: checkout }));
    writeFileSync(join(checkout, 'dist/main.js'), 'export {};\n');
    writeFileSync(join(checkout, 'notes.txt'), 'not packed\n');
  });
  afterEach(() => {
    rmSync(checkout, { recursive: true, force: true });
    for (const key of keys) rmSync(join(cache, `pack-${key}`), { recursive: true, force: true });
    keys.clear();
  });

  /** A stand-in for npm pack: writes a tarball named after the call and counts the calls. */
  const packer = () => {
    const calls: string[] = [];
    const pack = async (folder: string) => {
      calls.push(folder);
      await new Promise((r) => setTimeout(r, 50));
      const filename = `stand-in-${calls.length}.tgz`;
      writeFileSync(join(folder, filename), `tarball ${calls.length}`);
      return { filename, files: ['package.json', 'dist/main.js'] };
    };
    return { calls, pack };
  };

  it('packs once for callers at the same time; each gets the same tarball and listing', async () => {
    keys.add(packInputsHash(checkout));
    const { calls, pack } = packer();
    const results = await Promise.all([sharedPack(checkout, pack), sharedPack(checkout, pack), sharedPack(checkout, pack)]);
    expect(calls).toHaveLength(1);
    expect(new Set(results.map((r) => r.tarball)).size).toBe(1);
    expect(readFileSync(results[0]!.tarball, 'utf8')).toBe('tarball 1');
    expect(results[2]!.files).toEqual(['package.json', 'dist/main.js']);
    // later callers read the cache
    expect((await sharedPack(checkout, pack)).tarball).toBe(results[0]!.tarball);
    expect(calls).toHaveLength(1);
  });

  it('packs again after a change to a packed file or package.json, not after one elsewhere', async () => {
    const first = packInputsHash(checkout);
    writeFileSync(join(checkout, 'notes.txt'), 'still not packed\n');
    expect(packInputsHash(checkout)).toBe(first);
    writeFileSync(join(checkout, 'dist/main.js'), 'export const changed = 1;\n');
    const second = packInputsHash(checkout);
    expect(second).not.toBe(first);
    const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ ...manifest, version: '2.0.0' }));
    const third = packInputsHash(checkout);
    expect(new Set([first, second, third]).size).toBe(3);
    // a folder "files" leaves out (`!…`, another test's scratch folder) is not an input
    mkdirSync(join(checkout, 'dist/demo'));
    writeFileSync(join(checkout, 'dist/demo/scratch.js'), 'export {};\n');
    expect(packInputsHash(checkout)).toBe(third);
    writeFileSync(join(checkout, 'README.md'), '# stand-in\n');
    expect(packInputsHash(checkout)).not.toBe(third);
  });

  it('takes over a lock a killed run left behind', async () => {
    const key = packInputsHash(checkout);
    keys.add(key);
    const lock = join(cache, `pack-${key}.lock`);
    mkdirSync(lock, { recursive: true });
    const old = new Date(Date.now() - 600_000);
    utimesSync(lock, old, old);
    const { calls, pack } = packer();
    const packed = await sharedPack(checkout, pack);
    expect(calls).toHaveLength(1);
    expect(readFileSync(packed.tarball, 'utf8')).toBe('tarball 1');
  });
});
