// The generator benchmark's projects (bench/) stay valid input: the 100-kind synthetic project and the
// ~16,000-line API go through `kubeforge manifests` and `generate` with no error or warning, so the benchmark
// measures real work, never an early exit.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, runCli } from './cli-harness.js';

type Writer = (dir: string, size?: number) => unknown;

async function benchWriter(module: string, name: string): Promise<Writer> {
  const loaded = (await import(pathToFileURL(join(repoRoot, 'bench', module)).href)) as Record<string, Writer>;
  return loaded[name]!;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-bench-project-'));
  made.push(dir);
  writeFileSync(join(dir, 'PROJECT'), 'domain: example.com\nlayout:\n  - kubeforge.io/ts/v1\nprojectName: bench\nrepo: bench\nversion: "3"\n');
  mkdirSync(join(dir, 'node_modules'));
  return dir;
}

/** Lines of every .ts file under `dir`/api. */
function apiLines(dir: string): number {
  return readdirSync(join(dir, 'api'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .reduce((sum, file) => sum + readFileSync(join(dir, 'api', file), 'utf8').split('\n').length - 1, 0);
}

describe('the benchmark projects', () => {
  it('the ~16,000-line API makes its CRDs, role, webhooks and deep copies without a diagnostic', async () => {
    const dir = project();
    const written = (await benchWriter('large-api-project.mjs', 'writeLargeApiProject'))(dir) as { kinds: number; lines: number };
    expect(written.lines).toBeGreaterThanOrEqual(16000);
    expect(apiLines(dir)).toBe(written.lines);
    const manifests = await runCli(['manifests', '--root', dir]);
    expect(manifests.stderr).toBe('');
    expect(manifests.code).toBe(0);
    expect(readdirSync(join(dir, 'config/crd/bases'))).toHaveLength(written.kinds);
    expect(readFileSync(join(dir, 'config/webhook/manifests.yaml'), 'utf8')).toContain('kind: MutatingWebhookConfiguration');
    expect(existsSync(join(dir, 'config/rbac/role.yaml'))).toBe(true);
    const generate = await runCli(['generate', '--root', dir]);
    expect(generate.stderr).toBe('');
    expect(generate.code).toBe(0);
    for (const group of ['apps', 'data', 'network', 'storage']) expect(existsSync(join(dir, 'api', group, 'v1/zz_generated.deepcopy.ts'))).toBe(true);
  }, 120_000);

  it('the 100-kind synthetic project makes its CRDs without a diagnostic', async () => {
    const dir = project();
    (await benchWriter('synthetic-project.mjs', 'writeSyntheticProject'))(dir, 100);
    const manifests = await runCli(['manifests', '--root', dir, '--max-desc-len', '0']);
    expect(manifests.stderr).toBe('');
    expect(manifests.code).toBe(0);
    expect(readdirSync(join(dir, 'config/crd/bases'))).toHaveLength(100);
  }, 120_000);
});
