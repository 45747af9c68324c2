/**
 * What a made project's tsc reads of kubeforge: the declarations reachable from the four entry points
 * (dist/{api,runtime,cluster,testing}/index.d.ts). They must not name @peculiar/x509 or its ASN.1 schemas
 * (about 100 declaration files, ~0.13 CPU-s of every `make build`): only the cluster's CSR signing uses
 * that library, behind src/certificates/x509-module.ts, which no declaration imports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CHECKOUT } from '../scaffold/scaffold-harness.js';

/** Every .d.ts reachable from `entries` through relative imports and exports, and the packages they name. */
function declarationGraph(entries: string[]): { files: Set<string>; packages: Map<string, string[]> } {
  const files = new Set<string>();
  const packages = new Map<string, string[]>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
      if (specifier!.startsWith('.')) pending.push(resolve(dirname(file), specifier!.replace(/\.js$/, '.d.ts')));
      else packages.set(specifier!, [...(packages.get(specifier!) ?? []), file.slice(CHECKOUT.length + 1)]);
    }
  }
  return { files, packages };
}

test('the declarations a made project compiles against name no ASN.1 or X.509 library', () => {
  const entries = ['api', 'runtime', 'cluster', 'testing'].map((part) => join(CHECKOUT, 'dist', part, 'index.d.ts'));
  expect(entries.filter((entry) => !existsSync(entry))).toEqual([]);
  const { files, packages } = declarationGraph(entries);
  // the walk reached the certificates' declarations (where the library was named before)
  expect(files.has(join(CHECKOUT, 'dist/certificates/self-signed.d.ts'))).toBe(true);
  const named = [...packages].filter(([name]) => /^(@peculiar\/|asn1js$|pkijs$|reflect-metadata$|tsyringe$)/.test(name));
  expect(Object.fromEntries(named)).toEqual({});
});
