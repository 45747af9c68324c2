// Output files: written through a temp file only when bytes change; --check compares without writing.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPlannedFiles, plannedFileWithBytes, writePlannedFiles } from './output-files.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kubeforge-output-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('writePlannedFiles', () => {
  it('creates missing folders and files and reports them as written', async () => {
    const result = await writePlannedFiles(root, [{ path: 'config/crd/bases/a.yaml', content: 'a: 1\n' }]);
    expect(result).toEqual([{ path: 'config/crd/bases/a.yaml', outcome: 'written' }]);
    expect(readFileSync(join(root, 'config/crd/bases/a.yaml'), 'utf8')).toBe('a: 1\n');
  });

  it('does not touch a file whose bytes are already right, and rewrites one whose bytes differ', async () => {
    mkdirSync(join(root, 'config'));
    writeFileSync(join(root, 'config/same.yaml'), 'x\n');
    writeFileSync(join(root, 'config/old.yaml'), 'old\n');
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(root, 'config/same.yaml'), past, past);
    const result = await writePlannedFiles(root, [
      { path: 'config/same.yaml', content: 'x\n' },
      { path: 'config/old.yaml', content: 'new\n' },
    ]);
    expect(result.map((r) => r.outcome)).toEqual(['unchanged', 'written']);
    expect(statSync(join(root, 'config/same.yaml')).mtime.toISOString()).toBe(past.toISOString());
    expect(readFileSync(join(root, 'config/old.yaml'), 'utf8')).toBe('new\n');
  });

  it('leaves no temporary files behind', async () => {
    await writePlannedFiles(root, [{ path: 'a/b.txt', content: 'b' }]);
    expect(readdirSync(join(root, 'a'))).toEqual(['b.txt']);
  });

  it('refuses paths outside the root and two outputs for one path', async () => {
    await expect(writePlannedFiles(root, [{ path: '../escape.yaml', content: '' }])).rejects.toThrow('outside the project root');
    await expect(
      writePlannedFiles(root, [
        { path: 'a.yaml', content: '1' },
        { path: 'a.yaml', content: '2' },
      ]),
    ).rejects.toThrow('two outputs planned for one file: a.yaml');
  });
});

describe('checkPlannedFiles', () => {
  it('classifies files as fresh, stale or missing and writes nothing', async () => {
    writeFileSync(join(root, 'fresh.yaml'), 'f');
    writeFileSync(join(root, 'stale.yaml'), 'old');
    const result = await checkPlannedFiles(root, [
      { path: 'fresh.yaml', content: 'f' },
      { path: 'stale.yaml', content: 'new' },
      { path: 'missing.yaml', content: 'm' },
    ]);
    expect(result).toEqual([
      { path: 'fresh.yaml', freshness: 'fresh' },
      { path: 'stale.yaml', freshness: 'stale' },
      { path: 'missing.yaml', freshness: 'missing' },
    ]);
    expect(readdirSync(root).sort()).toEqual(['fresh.yaml', 'stale.yaml']);
    expect(readFileSync(join(root, 'stale.yaml'), 'utf8')).toBe('old');
  });
});

describe('planned files with their bytes in pieces', () => {
  const pieces = (...texts: string[]): Uint8Array[] => texts.map((t) => Buffer.from(t, 'utf8'));

  it('writes the pieces one after another', async () => {
    const file = plannedFileWithBytes('config/a.yaml', 'a: é\nb: 2\n', pieces('a: ', 'é\n', 'b: 2\n'));
    expect(await writePlannedFiles(root, [file])).toEqual([{ path: 'config/a.yaml', outcome: 'written' }]);
    expect(readFileSync(join(root, 'config/a.yaml'), 'utf8')).toBe('a: é\nb: 2\n');
  });

  it('compares the pieces with the disk: equal bytes are fresh, a prefix, a longer file or other bytes are stale', async () => {
    writeFileSync(join(root, 'same.yaml'), 'abcdef');
    writeFileSync(join(root, 'longer.yaml'), 'abcdefg');
    writeFileSync(join(root, 'shorter.yaml'), 'abc');
    writeFileSync(join(root, 'other.yaml'), 'abXdef');
    const planned = ['same', 'longer', 'shorter', 'other'].map((name) => plannedFileWithBytes(`${name}.yaml`, 'abcdef', pieces('ab', 'cd', 'ef')));
    expect((await checkPlannedFiles(root, planned)).map((r) => r.freshness)).toEqual(['fresh', 'stale', 'stale', 'stale']);
    expect((await writePlannedFiles(root, planned)).map((r) => r.outcome)).toEqual(['unchanged', 'written', 'written', 'written']);
    for (const name of ['same', 'longer', 'shorter', 'other']) expect(readFileSync(join(root, `${name}.yaml`), 'utf8')).toBe('abcdef');
  });

  it('keeps the bytes out of comparisons and printing: two plans of the same text are equal however they are cut', () => {
    const a = plannedFileWithBytes('a.yaml', 'abcdef', pieces('abc', 'def'));
    const b = plannedFileWithBytes('a.yaml', 'abcdef', pieces('ab', 'cdef'));
    expect(a).toEqual(b);
    expect(a).toEqual({ path: 'a.yaml', content: 'abcdef' });
    expect(a.bytes).toHaveLength(2);
  });
});
