// What importing kubeforge/runtime loads before any of it runs (issue 14): jest evaluates every module a test
// file imports afresh in that file's vm context, and a made project's manager pays the same at each start. The
// runtime keeps @kubernetes/client-node (~830 modules, ~0.43 CPU-s per jest file: its own kubeconfig loader
// reads kubeconfigs), @peculiar/x509 (certificates are built with node:crypto; it reads CSRs, loaded at the
// first) and the TypeScript compiler out of its static imports. Followed with scripts/load-cpu/import-graph.mjs,
// the walker scripts/load-cpu/measure.mjs uses.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticGraph } from '../../scripts/load-cpu/import-graph.mjs';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('kubeforge/runtime statically loads only pino, prom-client and yaml among packages', () => {
  const { files, packages } = staticGraph(path.join(checkout, 'src/runtime/index.ts'), checkout);
  // the walk went through the runtime's own modules (manager, client, cache, webhook …)
  expect([...files].map((f) => path.relative(checkout, f))).toEqual(expect.arrayContaining(['src/runtime/manager/manager.ts', 'src/runtime/client/kubeconfig.ts', 'src/certificates/self-signed.ts']));
  expect([...packages.keys()].sort()).toEqual(['pino', 'prom-client', 'yaml']);
});

test('the walker sees value imports and re-exports, not type-only imports or import()', () => {
  const { packages } = staticGraph(path.join(checkout, 'src/certificates/self-signed.ts'), checkout);
  // self-signed.ts names @peculiar/x509 twice: `import type` and a require at first use — neither loads it up front
  expect(packages.has('@peculiar/x509')).toBe(false);
  const { packages: cluster } = staticGraph(path.join(checkout, 'src/cluster/index.ts'), checkout);
  expect(cluster.has('better-sqlite3')).toBe(true);
});

test('the local cluster loads @peculiar/x509 at the first CSR it reads, not up front', () => {
  const { files, packages } = staticGraph(path.join(checkout, 'src/cluster/index.ts'), checkout);
  // csr-kinds.ts (CSR validation) and csr-signing-controller.ts are in the cluster's static graph
  expect([...files].map((f) => path.relative(checkout, f))).toEqual(expect.arrayContaining(['src/cluster/registry/builtin/csr-kinds.ts', 'src/cluster/controllers/csr-signing-controller.ts']));
  expect(packages.has('@peculiar/x509')).toBe(false);
  expect(packages.has('reflect-metadata')).toBe(false);
});
