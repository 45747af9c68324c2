/**
 * The demo's first short step: copies a sample operator project to a temporary folder, runs
 * `kubeforge manifests` and `kubeforge generate` on it as a user would, and shows the head of one CRD.
 * Returns false (after saying why) when an expected file was not made.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../cli/main.js';

/** The files the sample project must produce. */
const EXPECTED_FILES = [
  'config/crd/bases/batch.example.com_cronjobs.yaml',
  'config/crd/bases/batch.example.com_widgets.yaml',
  'config/rbac/role.yaml',
  'config/webhook/manifests.yaml',
  'api/v1/zz_generated.deepcopy.ts',
];

/** How many lines of the generated CRD to show. */
const CRD_HEAD_LINES = 12;

async function kubeforge(title: string, argv: string[]): Promise<number> {
  console.log(`\n$ kubeforge ${argv.join(' ')}    # ${title}`);
  process.exitCode = undefined;
  const code = await main(['node', 'kubeforge', ...argv]);
  process.exitCode = undefined;
  return code;
}

export async function runGeneratorStep(repoRoot: string): Promise<boolean> {
  const sampleProject = join(repoRoot, 'e2e/generator/fixtures/good');
  if (!existsSync(sampleProject)) {
    console.log(`the sample project is missing: ${sampleProject}`);
    return false;
  }
  const project = mkdtempSync(join(tmpdir(), 'kubeforge-demo-'));
  try {
    cpSync(sampleProject, project, { recursive: true });
    console.log(`A sample operator project (API group batch.example.com: CronJob and Widget) was copied to ${project}.`);
    if ((await kubeforge('CRDs, RBAC role and webhook configurations from the markers', ['manifests', '--root', project])) !== 0) return false;
    if ((await kubeforge('typed deep-copy helpers', ['generate', '--root', project])) !== 0) return false;
    if ((await kubeforge('the outputs are up to date', ['manifests', '--check', '--root', project])) !== 0) return false;

    const missing = EXPECTED_FILES.filter((file) => !existsSync(join(project, file)));
    if (missing.length > 0) {
      console.log(`\nexpected files were not written: ${missing.join(', ')}`);
      return false;
    }
    const crd = readFileSync(join(project, EXPECTED_FILES[1]!), 'utf8').split('\n');
    console.log(`\n--- ${EXPECTED_FILES[1]} (first ${CRD_HEAD_LINES} of ${crd.length} lines) ---`);
    console.log(crd.slice(0, CRD_HEAD_LINES).join('\n'));
    console.log(`\nAll ${EXPECTED_FILES.length} expected files were written.`);
    return true;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
