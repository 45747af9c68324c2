// The committed generated files are current: the declaration modules behind `kubeforge/kubernetes/<group>/<version>` (kubernetes/**/*.d.ts) are
// what scripts/extract-kubernetes-declarations.mjs makes from the 1.32 definitions today, and declare every
// catalogue key (so each type an API file can import has a schema, and each schema can be imported).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownTypeKeys } from './index.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, join(dir, entry.name)) : [relative(root, join(dir, entry.name))],
  );
}

describe('kubeforge/kubernetes declaration modules', () => {
  const committed = join(repoRoot, 'kubernetes');

  it('are current (the extraction script, run now, makes the same files; needs dist/ built)', () => {
    const out = mkdtempSync(join(tmpdir(), 'kubeforge-declarations-'));
    try {
      execFileSync(process.execPath, [join(repoRoot, 'scripts/extract-kubernetes-declarations.mjs'), out], { encoding: 'utf8' });
      const made = filesUnder(out).sort();
      expect(made.length).toBeGreaterThan(20);
      expect(filesUnder(committed).sort()).toEqual(made);
      for (const file of made) expect({ file, text: readFileSync(join(committed, file), 'utf8') }).toEqual({ file, text: readFileSync(join(out, file), 'utf8') });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('missing-field-docs.generated.ts is current (the extraction script, run now, makes the same file)', () => {
    const out = mkdtempSync(join(tmpdir(), 'kubeforge-field-docs-'));
    try {
      const file = join(out, 'docs.ts');
      execFileSync(process.execPath, [join(repoRoot, 'scripts/extract-missing-field-docs.mjs'), file], { encoding: 'utf8' });
      const committedFile = join(repoRoot, 'src/generate/crd/known-types/missing-field-docs.generated.ts');
      expect(readFileSync(committedFile, 'utf8')).toBe(readFileSync(file, 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('meta-v1-definitions.generated.ts is current (the extraction script, run now, makes the same file)', () => {
    const out = mkdtempSync(join(tmpdir(), 'kubeforge-meta-v1-'));
    try {
      const file = join(out, 'meta.ts');
      execFileSync(process.execPath, [join(repoRoot, 'scripts/extract-meta-v1-definitions.mjs'), file], { encoding: 'utf8' });
      const committedFile = join(repoRoot, 'src/generate/crd/known-types/meta-v1-definitions.generated.ts');
      expect(readFileSync(committedFile, 'utf8')).toBe(readFileSync(file, 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('declare every catalogue key but the Go-only ones (runtime, unstructured, apiextensions JSON)', () => {
    const declared = new Set<string>();
    for (const file of filesUnder(committed)) {
      const module = file.replace(/\.d\.ts$/, '').split('\\').join('/');
      for (const match of readFileSync(join(committed, file), 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)) declared.add(`${module}.${match[1]}`);
    }
    const missing = knownTypeKeys().filter((key) => !declared.has(key));
    expect(missing).toEqual(['apiextensions/v1.JSON', 'runtime.RawExtension', 'unstructured.Unstructured']);
    expect(declared).toContain('core/v1.TaintEffect');
    expect(declared).toContain('apps/v1.StatefulSetPersistentVolumeClaimRetentionPolicy');
  });
});
