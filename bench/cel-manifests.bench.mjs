// What CEL at generate time costs `kubeforge manifests` (`node bench/cel-manifests.bench.mjs`, after a build; not
// part of `npm test`): the 100-kind synthetic project of the generator benchmark, cold runs (fresh processes,
// kubeforge's caches removed before each), median of BENCH_RUNS (5), without CEL rules and with five
// x-kubernetes-validations rules per kind (500 in all: field, list, map, object and transition rules, each compiled
// and cost-estimated as the API server does when the CRD is created).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { writeSyntheticProject } from './synthetic-project.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'bin/kubeforge.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KINDS = Number(process.env.BENCH_KINDS ?? 100);

if (!existsSync(join(repo, 'dist/cli/main.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Each a marker line put before a field (or the kind's Spec / Status type) of every kind. */
const rules = [
  ['  image: string;', `  // +kubebuilder:validation:XValidation:rule="!self.contains('..') && self.size() > 0",message="image must not contain .."\n`],
  ['  endpoints?: ', `  // +kubebuilder:validation:MaxItems=16\n  // +kubebuilder:validation:XValidation:rule="self.all(e, e.port != 22)",messageExpression="'port 22 is not allowed in ' + string(self.size()) + ' endpoints'"\n`],
  ['  env?: ', `  // +kubebuilder:validation:MaxProperties=64\n  // +kubebuilder:validation:XValidation:rule="self.all(k, k.size() < 64 && !k.startsWith('KUBE'))",message="env names must be short and not start with KUBE"\n`],
  ['/** ${kind}Spec defines', `// +kubebuilder:validation:XValidation:rule="!has(self.schedule) || !has(self.suspend) || !self.suspend",message="a suspended schedule is pointless"\n// +kubebuilder:validation:XValidation:rule="!has(oldSelf.team) || has(self.team)",message="team cannot be removed"\n`],
];

function addRules(dir) {
  for (const file of readdirSync(join(dir, 'api/v1')).filter((f) => f.endsWith('_types.ts'))) {
    const path = join(dir, 'api/v1', file);
    let text = readFileSync(path, 'utf8');
    const kind = /export interface (\w+)Spec/.exec(text)[1];
    for (const [at, markers] of rules) {
      const anchor = at.replace('${kind}', kind);
      if (!text.includes(anchor)) throw new Error(`${file}: "${anchor}" not found`);
      text = text.replace(anchor, `${markers}${anchor}`);
    }
    writeFileSync(path, text);
  }
}

function project(withRules) {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-cel-bench-'));
  writeSyntheticProject(dir, KINDS);
  writeFileSync(join(dir, 'PROJECT'), 'domain: example.com\nlayout:\n  - kubeforge.io/ts/v1\nprojectName: bench\nrepo: bench\nversion: "3"\n');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (withRules) addRules(dir);
  return dir;
}

function manifestsMs(dir) {
  rmSync(join(dir, 'config'), { recursive: true, force: true });
  rmSync(join(dir, 'node_modules/.cache'), { recursive: true, force: true });
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'manifests'], { cwd: dir, encoding: 'utf8', env: { ...process.env, KUBEFORGE_NO_CODE_CACHE: '1' } });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`manifests failed:\n${result.stderr.split('\n').slice(0, 10).join('\n')}`);
  return ms;
}

const plain = project(false);
const celled = project(true);
try {
  const without = [];
  const withCel = [];
  for (let i = 0; i < RUNS; i++) {
    without.push(manifestsMs(plain));
    withCel.push(manifestsMs(celled));
  }
  const crd = readFileSync(join(celled, 'config/crd/bases', readdirSync(join(celled, 'config/crd/bases'))[0]), 'utf8');
  const ruleCount = (crd.match(/^\s+(- )?rule: /gm) ?? []).length;
  console.log(`kubeforge manifests, ${KINDS} kinds, cold (no code cache, no model cache), median of ${RUNS}:`);
  console.log(`  without CEL rules: ${median(without).toFixed(0)} ms`);
  console.log(`  with ${ruleCount} rules per CRD (${ruleCount * KINDS} in all), each compiled and cost-estimated: ${median(withCel).toFixed(0)} ms`);
} finally {
  rmSync(plain, { recursive: true, force: true });
  rmSync(celled, { recursive: true, force: true });
}
