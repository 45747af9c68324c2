// jest-circus's test context as scripts/jest-code-cache/test-context-storage.cjs keeps it (issue 14): one current
// value set for run()'s callback and its promise, restored after, nested runs restoring in turn; jest-circus in
// this worker gets it (a callback left by one test sees the test running when it fires, where an
// AsyncLocalStorage would give the finished test), test code still gets node's own; and no test file of the
// repository runs tests concurrently, which the plain value relies on.
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CurrentValueStorage, isJestCircus } from '../scripts/jest-code-cache/test-context-storage.cjs';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('CurrentValueStorage', () => {
  it('holds the store for a synchronous callback, restores it after, also when the callback throws', () => {
    const storage = new CurrentValueStorage<string>();
    expect(storage.getStore()).toBeUndefined();
    expect(storage.run('a', (x: number) => `${storage.getStore()}${x}`, 1)).toBe('a1');
    expect(storage.getStore()).toBeUndefined();
    expect(() => storage.run('b', () => {
      throw new Error('boom');
    })).toThrow('boom');
    expect(storage.getStore()).toBeUndefined();
  });

  it('holds the store across the awaits of an async callback and restores the outer one when it settles', async () => {
    const storage = new CurrentValueStorage<string>();
    const seen: (string | undefined)[] = [];
    await storage.run('outer', async () => {
      seen.push(storage.getStore());
      await storage.run('inner', async () => {
        await new Promise((r) => setImmediate(r));
        seen.push(storage.getStore());
      });
      seen.push(storage.getStore());
      await expect(storage.run('failing', async () => {
        await Promise.resolve();
        throw new Error('late');
      })).rejects.toThrow('late');
      seen.push(storage.getStore());
    });
    expect(seen).toEqual(['outer', 'inner', 'outer', 'outer']);
    expect(storage.getStore()).toBeUndefined();
  });

  it('is given to jest-circus’s bundle only', () => {
    expect(isJestCircus(path.join(checkout, 'node_modules/jest-circus/build/jestAdapterInit.js'))).toBe(true);
    expect(isJestCircus(path.join(checkout, 'node_modules/jest-runtime/build/index.js'))).toBe(false);
    expect(isJestCircus(path.join(checkout, 'src/runtime/index.ts'))).toBe(false);
    // test code gets node's own
    expect(AsyncLocalStorage.name).toBe('AsyncLocalStorage');
    const als = new AsyncLocalStorage<string>();
    let late: string | undefined;
    als.run('own', () => setImmediate(() => (late = als.getStore())));
    return new Promise<void>((resolve) => setImmediate(() => {
      expect(late).toBe('own');
      resolve();
    }));
  });
});

describe('jest-circus in this worker', () => {
  const currentTest = (): string | undefined => (expect.getState() as { currentConcurrentTestName?: () => string | undefined }).currentConcurrentTestName?.();
  let firedIn: string | undefined;
  let fired: Promise<void>;

  it('names the running test after an await (a timer left running)', async () => {
    await new Promise((r) => setImmediate(r));
    expect(currentTest()).toBe('jest-circus in this worker names the running test after an await (a timer left running)');
    fired = new Promise((resolve) => setTimeout(() => {
      firedIn = currentTest();
      resolve();
    }, 50));
  });

  it('sees the test running when the timer fires, not the one that set it', async () => {
    await fired;
    const usesPlainValue = process.env.KUBEFORGE_JEST_CONTEXT_STORAGE !== '0';
    expect(firedIn).toBe(usesPlainValue ? 'jest-circus in this worker sees the test running when the timer fires, not the one that set it' : 'jest-circus in this worker names the running test after an await (a timer left running)');
  });
});

describe('the repository’s test files', () => {
  it('run no tests concurrently (test.concurrent, it.concurrent, describe.concurrent)', () => {
    const files = execFileSync('git', ['ls-files', '*.test.ts', '*.test.mjs'], { cwd: checkout, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(300);
    const concurrent = files.filter((file) => /\b(test|it|describe)\.concurrent\b/.test(readFileSync(path.join(checkout, file), 'utf8')) && file !== 'e2e/jest-test-context.test.ts');
    expect(concurrent).toEqual([]);
  });
});
