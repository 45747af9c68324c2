/** importSpellingWarnings: the spellings tsc rejects under NodeNext, each with the one that compiles. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpellingWarnings } from './import-spellings.js';

test('warns for extensionless kubernetes-types, relative and folder imports and kubeforge/api/index.js, nothing else', () => {
  const root = mkdtempSync(join(tmpdir(), 'kubeforge-spellings-'));
  try {
    mkdirSync(join(root, 'api/v1/shared'), { recursive: true });
    writeFileSync(join(root, 'api/v1/other.ts'), 'export type A = string;\n');
    writeFileSync(join(root, 'api/v1/shared/index.ts'), 'export type B = string;\n');
    const text = [
      "import type {",
      "  JobSpec,",
      "} from 'kubernetes-types/batch/v1';",
      "import type { A } from './other';",
      "import type { B } from './shared';",
      "import type { ObjectMeta } from 'kubeforge/api/index.js';",
      "import type { PodSpec } from 'kubernetes-types/core/v1.js';",
      "import type { A as A2 } from './other.js';",
      "export type { A } from \"./other\";",
      "export interface Kind { mode: './other' | 'kubernetes-types/x' }",
      "// import nothing from './other'",
      '',
    ].join('\n');
    const messages = importSpellingWarnings(root, 'api/v1/kind.ts', text).map((d) => `${d.position.line}:${d.position.column} ${d.message.replace(/.*; write /, 'write ')}`);
    expect(messages).toEqual([
      "3:8 write 'kubernetes-types/batch/v1.js'",
      "4:24 write './other.js'",
      "5:24 write './shared/index.js'",
      "6:33 write 'kubeforge/api'",
      "9:24 write './other.js'",
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('warns for kubeforge/kubernetes/<group>/<version> with an extension (the exports map takes the bare name)', () => {
  const text = [
    "import type { Taint } from 'kubeforge/kubernetes/core/v1.js';",
    "import type { TaintEffect } from 'kubeforge/kubernetes/core/v1';",
    '',
  ].join('\n');
  const messages = importSpellingWarnings('/nowhere', 'api/v1/kind.ts', text).map((d) => `${d.position.line}:${d.position.column} ${d.message.replace(/.*; write /, 'write ')}`);
  expect(messages).toEqual(["1:28 write 'kubeforge/kubernetes/core/v1'"]);
});

test('warns for a name kubernetes-types (1.30) does not export, pointing at kubeforge/kubernetes (TS2305)', () => {
  const root = mkdtempSync(join(tmpdir(), 'kubeforge-spellings-'));
  try {
    // the project's install of kubernetes-types: this checkout's
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    symlinkSync(fileURLToPath(new URL('../../node_modules/kubernetes-types', import.meta.url)), join(root, 'node_modules/kubernetes-types'));
    const text = [
      "import type { Taint, TaintEffect, ResourceList as Resources } from 'kubernetes-types/core/v1.js';",
      "import { type Condition, type ConditionStatus } from 'kubernetes-types/meta/v1.js';",
      // a name kubernetes-types lacks whose longer neighbour it exports; a name Kubernetes 1.32 lacks too (the catalogue's error)
      "import type { Status, StatusDetails, NoSuchType } from 'kubernetes-types/meta/v1.js';",
      '',
    ].join('\n');
    const messages = importSpellingWarnings(root, 'api/v1/kind.ts', text).map((d) => `${d.position.line}:${d.position.column} ${d.message}`);
    expect(messages).toEqual([
      "1:22 warning: 'TaintEffect' is read here as Kubernetes 1.32's core/v1.TaintEffect, but kubernetes-types (1.30) does not export it, so tsc fails (TS2305); 'kubeforge/kubernetes/core/v1' declares it, import it there",
      "1:35 warning: 'ResourceList' is read here as Kubernetes 1.32's core/v1.ResourceList, but kubernetes-types (1.30) does not export it, so tsc fails (TS2305); 'kubeforge/kubernetes/core/v1' declares it, import it there",
      "2:31 warning: 'ConditionStatus' is read here as Kubernetes 1.32's meta/v1.ConditionStatus, but kubernetes-types (1.30) does not export it, so tsc fails (TS2305); 'kubeforge/kubernetes/meta/v1' declares it, import it there",
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
