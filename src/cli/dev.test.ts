/**
 * `kubeforge dev` refuses a folder it cannot run, naming what is missing, and changes nothing there.
 */
import { jest } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDev } from './dev-loop.js';

describe('kubeforge dev outside a runnable project', () => {
  let root = '';
  let errors: string[] = [];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubeforge-dev-refuse-'));
    errors = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      errors.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it('a folder without PROJECT: exit 1, the reason, nothing made', async () => {
    expect(await runDev({ root, managerArgs: [] })).toBe(1);
    expect(errors.join('')).toBe(`kubeforge dev: ${root} is not a kubeforge project (no PROJECT file); run it in a folder made by \`kubeforge init\`\n`);
    expect(readdirSync(root)).toEqual([]);
  });

  it('a project before npm install: exit 1, says to install', async () => {
    writeFileSync(join(root, 'PROJECT'), 'version: "3"\n');
    mkdirSync(join(root, 'cmd'));
    writeFileSync(join(root, 'cmd/run-local.ts'), '');
    expect(await runDev({ root, managerArgs: [] })).toBe(1);
    expect(errors.join('')).toBe(`kubeforge dev: ${join(root, 'node_modules/typescript')} is missing: run \`npm install\` first\n`);
    expect(readdirSync(root).sort()).toEqual(['PROJECT', 'cmd']);
  });
});
