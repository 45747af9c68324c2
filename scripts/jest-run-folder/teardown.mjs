// jest's globalTeardown: removes the run's temporary folder that setup.mjs made (KUBEFORGE_TEST_RUN_DIR).
import { rmSync } from 'node:fs';

export default function teardown() {
  const folder = process.env.KUBEFORGE_TEST_RUN_DIR;
  if (folder) rmSync(folder, { recursive: true, force: true });
}
