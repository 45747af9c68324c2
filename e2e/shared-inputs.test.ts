// Honest conformance: a suite that compares with ../shared skips with a warning in a user's clone without it,
// and fails in CI (.ci/run sets KUBEFORGE_REQUIRE_SHARED=1); every such suite decides through shared-inputs.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { jest } from '@jest/globals';
import { CHECKOUT } from './scaffold/scaffold-harness.js';
import { MissingSharedInputError, REQUIRE_SHARED, sharedInputPresent, sharedPath, SHARED_ROOT } from './shared-inputs.js';

describe('sharedInputPresent', () => {
  const absent = sharedPath('conformance/no-such-golden.yaml');

  it('is true for an input that is there, whatever the switch says', () => {
    const folder = mkdtempSync(join(tmpdir(), 'kubeforge-shared-'));
    try {
      expect(sharedInputPresent(folder, 'a suite', { [REQUIRE_SHARED]: '1' })).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('skips with a warning naming the suite and the path in a clone without ../shared', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(sharedInputPresent(absent, 'the golden suite', {})).toBe(false);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toBe(
        `skipping the golden suite: ${absent} is absent (it needs ../shared next to the checkout; CI sets ${REQUIRE_SHARED}=1 to fail instead)`,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('fails, with a message naming the suite, the path and the switch, when CI requires ../shared', () => {
    expect(() => sharedInputPresent(absent, 'the golden suite', { [REQUIRE_SHARED]: '1' })).toThrow(MissingSharedInputError);
    expect(() => sharedInputPresent(absent, 'the golden suite', { [REQUIRE_SHARED]: '1' })).toThrow(
      `the golden suite: ${absent} is absent, and ${REQUIRE_SHARED}=1 (set by .ci/run) makes that a failure instead of a skip`,
    );
  });

  it('looks for ../shared next to the checkout', () => {
    expect(SHARED_ROOT).toBe(join(CHECKOUT, '..', 'shared'));
    expect(sharedPath('conformance/x.yaml')).toBe(join(CHECKOUT, '..', 'shared', 'conformance', 'x.yaml'));
  });
});

describe('the switch and the suites that obey it', () => {
  it('.ci/run sets the switch before it runs the tests', () => {
    const script = readFileSync(join(CHECKOUT, '.ci/run'), 'utf8');
    const setAt = script.search(new RegExp(`^export ${REQUIRE_SHARED}=1$`, 'm'));
    expect(setAt).toBeGreaterThanOrEqual(0);
    expect(script.indexOf('npm test')).toBeGreaterThan(setAt);
  });

  /** Every test file of the checkout (fixtures and node_modules left out), root-relative. */
  function testFiles(): string[] {
    const found: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        if (entry === 'node_modules' || entry === 'fixtures' || entry === 'dist' || entry.startsWith('.')) continue;
        const abs = join(dir, entry);
        if (statSync(abs).isDirectory()) visit(abs);
        else if (entry.endsWith('.test.ts')) found.push(relative(CHECKOUT, abs));
      }
    };
    for (const top of ['src', 'e2e', 'examples']) visit(join(CHECKOUT, top));
    return found.sort();
  }

  it('every suite reading ../shared goes through shared-inputs.ts; none finds the folder by itself', () => {
    const suites = testFiles().filter((file) => file !== 'e2e/shared-inputs.test.ts'); // this file tests the helper itself
    const texts = new Map(suites.map((file) => [file, readFileSync(join(CHECKOUT, file), 'utf8')]));
    const code = (text: string) =>
      text
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
        .join('\n');
    // a path to ../shared built by the file itself (as every one of them did before shared-inputs.ts)
    const ownPath = /(URL|resolve|join)\([^)]*\.\.\/shared\b|'\.\.',\s*'shared'/;
    expect([...texts].filter(([, text]) => ownPath.test(code(text))).map(([file]) => file)).toEqual([]);
    const users = [...texts].filter(([, text]) => text.includes('sharedPath(')).map(([file]) => file);
    expect(users.length).toBeGreaterThanOrEqual(9);
    expect(users.filter((file) => !texts.get(file)!.includes('sharedInputPresent('))).toEqual([]);
  });
});
