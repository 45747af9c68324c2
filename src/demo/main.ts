/**
 * `npm run demo`, the README's main command: a short generator step (manifests and deep-copy from a
 * sample project), then the reference operators at work on the local cluster (cluster-demo.ts).
 * Exits 0 only when both succeed. KUBEFORGE_DEMO_PACE_MS sets the wall-clock pause per virtual minute
 * (default 500; 0 in tests), KUBEFORGE_DEMO_SKIP leaves out operators (comma-separated example names).
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runClusterDemo } from './cluster-demo.js';
import { runGeneratorStep } from './generator-step.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
/** This run's own folder for the transpiled examples (two demos at once must not share one). */
const buildRoot = fileURLToPath(new URL(`../examples/run-${process.pid}`, import.meta.url));

/** Virtual minutes the cluster part runs. */
const MINUTES = 4;

function paceFromEnv(): number {
  const text = process.env.KUBEFORGE_DEMO_PACE_MS;
  if (text === undefined || text === '') return 500;
  const pace = Number(text);
  if (!Number.isFinite(pace) || pace < 0) throw new Error(`KUBEFORGE_DEMO_PACE_MS: expected a number of milliseconds >= 0, got ${JSON.stringify(text)}`);
  return pace;
}

async function demo(): Promise<number> {
  console.log('== 1. The generator: a sample project\'s manifests and deep-copy helpers, as `kubeforge` writes them');
  if (!(await runGeneratorStep(repoRoot))) return 1;
  console.log('\n== 2. The reference operators (examples/) on the local cluster, with real kubectl');
  const skip = (process.env.KUBEFORGE_DEMO_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  try {
    const ok = await runClusterDemo({ repoRoot, buildRoot, paceMs: paceFromEnv(), minutes: MINUTES, skip });
    return ok ? 0 : 1;
  } finally {
    rmSync(buildRoot, { recursive: true, force: true });
  }
}

demo().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
