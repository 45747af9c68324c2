// jest's globalSetup: a temporary folder for this one jest run, named in KUBEFORGE_TEST_RUN_DIR, which the
// workers (started after this) inherit; test files share results of this run only through it
// (e2e/examples/shared-install.ts). teardown.mjs removes it when the run ends.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  process.env.KUBEFORGE_TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'kubeforge-test-run-'));
}
