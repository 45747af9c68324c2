// Generator benchmarks (`npm run bench:generator`, not part of `npm test`):
// (1) `kubeforge manifests` + `kubeforge generate`, cold (fresh processes), on a synthetic project of 100
//     kinds, median of 5, side by side with ts-json-schema-generator making plain JSON schema for the same
//     types (with its default type check, and with --no-type-check); kubeforge also without its on-disk V8
//     code cache of the TypeScript compiler (src/reader/compiler-code-cache.ts) and without the model cache
//     through which generate reuses what manifests read (src/reader/model-cache.ts; every round starts without it);
// (2) deep copy of a CronJob with a full job template: the generated helper vs structuredClone vs
//     JSON.parse(JSON.stringify(...)), medians and ratios.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, cpSync, existsSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import { isDeepStrictEqual } from 'node:util';
import { writeSyntheticProject } from './synthetic-project.mjs';
import { cronJobSample } from './cronjob-sample.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'bin/kubeforge.js');
const tjsgCli = join(repo, 'node_modules/ts-json-schema-generator/bin/ts-json-schema-generator.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KINDS = Number(process.env.BENCH_KINDS ?? 100);

if (!existsSync(join(repo, 'dist/cli/main.js'))) {
  console.error('dist/ is missing: run `npm run build` first (npm run bench:generator does).');
  process.exit(1);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function run(args, cwd, env = process.env) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    const output = `${result.stderr}${result.stdout}`.split('\n').slice(0, 20).join('\n');
    throw new Error(`${args.join(' ')} failed (${result.status}):\n${output}`);
  }
  return ms;
}

function generatorBenchmark() {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-bench-'));
  try {
    writeSyntheticProject(dir, KINDS);
    // The generator commands run only inside a project (a folder with PROJECT).
    writeFileSync(join(dir, 'PROJECT'), 'domain: example.com\nlayout:\n  - kubeforge.io/ts/v1\nprojectName: bench\nrepo: bench\nversion: "3"\n');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true, noEmit: true, types: [], baseUrl: '.',
          paths: { 'kubeforge/api': [join(repo, 'src/api/index.ts')], 'kubernetes-types/*': [join(repo, 'node_modules/kubernetes-types/*')] },
        },
        include: ['api/**/*.ts'],
      }),
    );
    const kubeforge = [];
    const kubeforgeNoDesc = [];
    const kubeforgeNoCodeCache = [];
    const kubeforgeNoModelCache = [];
    const noCodeCache = { ...process.env, KUBEFORGE_NO_CODE_CACHE: '1' };
    const noModelCache = { ...process.env, KUBEFORGE_NO_MODEL_CACHE: '1' };
    // A made project has node_modules; its .cache/kubeforge/models holds the model manifests saves for generate.
    // Every round starts without it (a cold run), so generate reuses only what manifests read in the same round.
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    const fresh = () => {
      rmSync(join(dir, 'config'), { recursive: true, force: true });
      rmSync(join(dir, 'api/v1/zz_generated.deepcopy.ts'), { force: true });
      rmSync(join(dir, 'node_modules/.cache'), { recursive: true, force: true });
    };
    const manifestsOnly = [];
    const generateOnly = [];
    const tjsg = [];
    const tjsgNoCheck = [];
    for (let i = 0; i < RUNS; i++) {
      fresh();
      const m = run([cli, 'manifests', '--root', dir], dir);
      const g = run([cli, 'generate', '--root', dir], dir);
      manifestsOnly.push(m);
      generateOnly.push(g);
      kubeforge.push(m + g);
      fresh();
      kubeforgeNoDesc.push(run([cli, 'manifests', '--root', dir, '--max-desc-len', '0'], dir) + run([cli, 'generate', '--root', dir], dir));
      fresh();
      kubeforgeNoCodeCache.push(run([cli, 'manifests', '--root', dir], dir, noCodeCache) + run([cli, 'generate', '--root', dir], dir, noCodeCache));
      fresh();
      kubeforgeNoModelCache.push(run([cli, 'manifests', '--root', dir], dir, noModelCache) + run([cli, 'generate', '--root', dir], dir, noModelCache));
      tjsg.push(run([tjsgCli, '--path', 'api/v1/*_types.ts', '--type', '*', '--tsconfig', 'tsconfig.json', '-o', join(dir, 'out/schema.json')], dir));
      tjsgNoCheck.push(
        run([tjsgCli, '--path', 'api/v1/*_types.ts', '--type', '*', '--tsconfig', 'tsconfig.json', '--no-type-check', '-o', join(dir, 'out/schema-nc.json')], dir),
      );
    }
    const crdCount = spawnSync('sh', ['-c', 'ls config/crd/bases | wc -l'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
    const outputBytes = spawnSync('sh', ['-c', 'cat config/crd/bases/* | wc -c'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
    // Per-run ratios (tool ÷ kubeforge in the same round) are steadier than a ratio of medians on a busy machine.
    const roundRatio = (times) => median(times.map((t, i) => t / kubeforge[i]));
    return {
      kubeforge: median(kubeforge), kubeforgeNoDesc: median(kubeforgeNoDesc), kubeforgeNoCodeCache: median(kubeforgeNoCodeCache), kubeforgeNoModelCache: median(kubeforgeNoModelCache), outputBytes, manifestsOnly: median(manifestsOnly), generateOnly: median(generateOnly),
      tjsg: median(tjsg), tjsgNoCheck: median(tjsgNoCheck), crdCount, tjsgRoundRatio: roundRatio(tjsg), tjsgNoCheckRoundRatio: roundRatio(tjsgNoCheck),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loadGeneratedCronJobCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-bench-dc-'));
  try {
    cpSync(join(repo, 'e2e/generator/fixtures/good'), dir, { recursive: true });
    run([cli, 'generate', '--root', dir], dir);
    const source = readFileSync(join(dir, 'api/v1/zz_generated.deepcopy.ts'), 'utf8');
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(join(dir, 'deepcopy.mjs'), js);
    return (await import(pathToFileURL(join(dir, 'deepcopy.mjs')).href)).deepCopyCronJob;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** µs per copy for each method, measured in interleaved rounds so a busy machine slows all of them alike. */
function timePerCopy(methods, value, iterations = 20000, rounds = 9) {
  const samples = Object.fromEntries(Object.keys(methods).map((name) => [name, []]));
  for (const copy of Object.values(methods)) for (let i = 0; i < iterations; i++) copy(value); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const [name, copy] of Object.entries(methods)) {
      const started = performance.now();
      for (let i = 0; i < iterations; i++) copy(value);
      samples[name].push(((performance.now() - started) * 1000) / iterations);
    }
  }
  const ratioTo = (name) => median(samples[name].map((t, r) => t / samples.generated[r]));
  return Object.fromEntries(Object.keys(methods).map((name) => [name, { us: median(samples[name]), ratio: ratioTo(name) }]));
}

async function deepCopyBenchmark() {
  const deepCopyCronJob = await loadGeneratedCronJobCopy();
  const value = cronJobSample();
  const copied = deepCopyCronJob(value);
  if (!isDeepStrictEqual(copied, value)) throw new Error('generated deep copy is not equal to its input');
  return timePerCopy(
    { generated: deepCopyCronJob, structuredClone: (v) => structuredClone(v), json: (v) => JSON.parse(JSON.stringify(v)) },
    value,
  );
}

/** Where the time of one in-process `manifests` goes: reading the types, building the CRDs, writing their YAML. */
async function manifestsPhases(maxDescLen) {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-bench-phases-'));
  try {
    writeSyntheticProject(dir, KINDS);
    const { loadApiProject } = await import(pathToFileURL(join(repo, 'dist/reader/index.js')).href);
    const { buildCrds, emitCrdYaml } = await import(pathToFileURL(join(repo, 'dist/generate/crd/index.js')).href);
    const t0 = performance.now();
    const { model } = await loadApiProject({ root: dir });
    const t1 = performance.now();
    const { crds } = buildCrds(model, { maxDescLen });
    const t2 = performance.now();
    let bytes = 0;
    for (const crd of crds) bytes += emitCrdYaml(crd).length;
    const t3 = performance.now();
    return { read: t1 - t0, build: t2 - t1, yaml: t3 - t2, bytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmtMs = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`kubeforge generator benchmarks — node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at start, median of ${RUNS} cold runs`);
console.log('');
const g = generatorBenchmark();
console.log(`(1) ${KINDS} kinds (~20 fields, markers, embedded PodTemplateSpec) → ${g.crdCount} CRDs (${(Number(g.outputBytes) / 1e6).toFixed(1)} MB of CRD YAML with descriptions kept) + role + deep copy`);
console.log('| tool | median wall time | its time ÷ kubeforge manifests + generate |');
console.log('| --- | ---: | ---: |');
console.log(`| kubeforge manifests + generate | ${fmtMs(g.kubeforge)} | 1.00 |`);
console.log(`| kubeforge manifests alone | ${fmtMs(g.manifestsOnly)} | ${(g.manifestsOnly / g.kubeforge).toFixed(2)} |`);
console.log(`| kubeforge generate alone (after manifests: reuses its saved model) | ${fmtMs(g.generateOnly)} | ${(g.generateOnly / g.kubeforge).toFixed(2)} |`);
console.log(`| kubeforge manifests + generate, KUBEFORGE_NO_MODEL_CACHE=1 (each command parses the types) | ${fmtMs(g.kubeforgeNoModelCache)} | ${(g.kubeforgeNoModelCache / g.kubeforge).toFixed(2)} |`);
console.log(`| kubeforge manifests + generate, KUBEFORGE_NO_CODE_CACHE=1 (compiler compiled afresh) | ${fmtMs(g.kubeforgeNoCodeCache)} | ${(g.kubeforgeNoCodeCache / g.kubeforge).toFixed(2)} |`);
console.log(`| kubeforge manifests --max-desc-len 0 + generate | ${fmtMs(g.kubeforgeNoDesc)} | ${(g.kubeforgeNoDesc / g.kubeforge).toFixed(2)} |`);
console.log(`| ts-json-schema-generator 2.4.0 (default, type-checks) | ${fmtMs(g.tjsg)} | ${(g.tjsg / g.kubeforge).toFixed(2)} |`);
console.log(`| ts-json-schema-generator 2.4.0 --no-type-check | ${fmtMs(g.tjsgNoCheck)} | ${(g.tjsgNoCheck / g.kubeforge).toFixed(2)} |`);
console.log(`ts-json-schema-generator ÷ kubeforge, median of the per-round ratios: ${g.tjsgRoundRatio.toFixed(2)} (default), ${g.tjsgNoCheckRoundRatio.toFixed(2)} (--no-type-check)`);
console.log('');
console.log('(1b) where one in-process manifests run spends its time (after module loading)');
console.log('| descriptions | read types | build CRDs | emit YAML | YAML size |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [label, maxDescLen] of [['kept', undefined], ['--max-desc-len 0', 0]]) {
  const p = await manifestsPhases(maxDescLen);
  console.log(`| ${label} | ${fmtMs(p.read)} | ${fmtMs(p.build)} | ${fmtMs(p.yaml)} | ${(p.bytes / 1e6).toFixed(1)} MB |`);
}
console.log('');
const d = await deepCopyBenchmark();
console.log('(2) deep copy of a CronJob with a full job template (median of 9 interleaved rounds of 20,000 copies)');
console.log('| method | µs per copy | vs generated (median of per-round ratios) |');
console.log('| --- | ---: | ---: |');
console.log(`| generated deepCopyCronJob | ${d.generated.us.toFixed(2)} | 1.0× |`);
console.log(`| structuredClone | ${d.structuredClone.us.toFixed(2)} | ${d.structuredClone.ratio.toFixed(1)}× slower |`);
console.log(`| JSON.parse(JSON.stringify()) | ${d.json.us.toFixed(2)} | ${d.json.ratio.toFixed(1)}× slower |`);
console.log('');
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 min) — the machine is shared, so compare ratios within this run`);
