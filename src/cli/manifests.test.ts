// planManifests hands each CRD over with its UTF-8 bytes in pieces (text shared between CRDs is encoded once):
// the pieces must be exactly the bytes of the CRD's text, and what is written from them must be that text.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planManifests } from './manifests.js';
import { writePlannedFiles } from './output-files.js';

const project = join(dirname(fileURLToPath(import.meta.url)), '../../e2e/generator/fixtures/good');

describe('planManifests', () => {
  it('gives every CRD its bytes in pieces, equal to the UTF-8 of its text, and writes that text', async () => {
    const run = await planManifests({ root: project });
    expect(run.diagnostics).toEqual([]);
    const crds = run.files.filter((f) => f.path.startsWith('config/crd/bases/'));
    expect(crds.length).toBeGreaterThan(0);
    for (const file of crds) {
      expect(file.bytes).toBeDefined();
      expect(Buffer.concat(file.bytes!).toString('utf8')).toBe(file.content);
    }
    // The CronJob's job template holds subtrees used twice (a Container schema): they come as pieces of their own.
    expect(Math.max(...crds.map((f) => f.bytes!.length))).toBeGreaterThan(1);

    const out = mkdtempSync(join(tmpdir(), 'kubeforge-manifests-bytes-'));
    try {
      await writePlannedFiles(out, run.files);
      for (const file of run.files) expect(readFileSync(join(out, file.path), 'utf8')).toBe(file.content);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
