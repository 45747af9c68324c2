import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScaffoldConflictError, ScaffoldPlan } from './plan.js';

describe('ScaffoldPlan', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubeforge-plan-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('collects every conflict and writes nothing while there is one', () => {
    writeFileSync(join(root, 'a.txt'), 'mine');
    writeFileSync(join(root, 'b.txt'), 'mine too');
    const plan = new ScaffoldPlan(root);
    plan.create('new.txt', 'x');
    plan.create('a.txt', 'theirs');
    plan.create('b.txt', 'theirs');
    expect(() => plan.write()).toThrow(ScaffoldConflictError);
    expect(() => plan.write()).toThrow('nothing was written:\n  a.txt already exists (use --force to overwrite it)\n  b.txt already exists (use --force to overwrite it)');
    expect(existsSync(join(root, 'new.txt'))).toBe(false);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('mine');
  });

  it('overwrites with force, and reads its own planned content back', () => {
    writeFileSync(join(root, 'a.txt'), 'mine');
    const plan = new ScaffoldPlan(root, true);
    plan.create('a.txt', 'theirs');
    expect(plan.read('a.txt')).toBe('theirs');
    plan.update('a.txt', 'theirs, updated');
    expect(plan.describe()).toEqual(['overwrite a.txt']);
    plan.write();
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('theirs, updated');
  });

  it('leaves an unchanged file out of the plan', () => {
    writeFileSync(join(root, 'same.txt'), 'same');
    const plan = new ScaffoldPlan(root);
    plan.update('same.txt', 'same');
    plan.createIfMissing('same.txt', 'other');
    expect(plan.list()).toEqual([]);
  });

  it('restores every file it touched when a write fails halfway', () => {
    writeFileSync(join(root, 'first.txt'), 'before');
    const plan = new ScaffoldPlan(root);
    plan.update('first.txt', 'after');
    plan.create('created.txt', 'new');
    plan.create('blocker/inside.txt', 'cannot');
    writeFileSync(join(root, 'blocker'), 'a file where a folder is needed'); // fails even for root
    expect(() => plan.write()).toThrow(/EEXIST|ENOTDIR/);
    expect(readFileSync(join(root, 'first.txt'), 'utf8')).toBe('before');
    expect(existsSync(join(root, 'created.txt'))).toBe(false);
  });
});
