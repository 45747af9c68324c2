/**
 * The interim main job (`npm run demo`): copies a sample operator project to a temporary folder, runs
 * `kubeforge manifests` and `kubeforge generate` on it as a user would, shows what was written and one
 * CRD, and exits 0 only when every expected file was made. (It becomes the local-cluster demo later.)
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../cli/main.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sampleProject = join(repoRoot, 'e2e/generator/fixtures/good');

/** The files the sample project must produce. */
const EXPECTED_FILES = [
  'config/crd/bases/batch.example.com_cronjobs.yaml',
  'config/crd/bases/batch.example.com_widgets.yaml',
  'config/rbac/role.yaml',
  'config/webhook/manifests.yaml',
  'api/v1/zz_generated.deepcopy.ts',
];

async function step(title: string, argv: string[]): Promise<number> {
  console.log(`\n$ kubeforge ${argv.join(' ')}    # ${title}`);
  process.exitCode = undefined;
  const code = await main(['node', 'kubeforge', ...argv]);
  process.exitCode = undefined;
  return code;
}

async function demo(): Promise<number> {
  if (!existsSync(sampleProject)) {
    console.error(`the sample project is missing: ${sampleProject}`);
    return 1;
  }
  const project = mkdtempSync(join(tmpdir(), 'kubeforge-demo-'));
  try {
    cpSync(sampleProject, project, { recursive: true });
    console.log(`A sample operator project (API group batch.example.com: CronJob and Widget) was copied to ${project}.`);
    if ((await step('CRDs, RBAC role and webhook configurations from the markers', ['manifests', '--root', project])) !== 0) return 1;
    if ((await step('typed deep-copy helpers', ['generate', '--root', project])) !== 0) return 1;
    if ((await step('the outputs are up to date', ['manifests', '--check', '--root', project])) !== 0) return 1;

    const missing = EXPECTED_FILES.filter((file) => !existsSync(join(project, file)));
    if (missing.length > 0) {
      console.error(`\nexpected files were not written: ${missing.join(', ')}`);
      return 1;
    }
    console.log(`\n--- ${EXPECTED_FILES[1]} ---`);
    process.stdout.write(readFileSync(join(project, EXPECTED_FILES[1]!), 'utf8'));
    console.log(`\nAll ${EXPECTED_FILES.length} expected files were written.`);
    return 0;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

demo().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : String(err));
    process.exit(1);
  },
);
