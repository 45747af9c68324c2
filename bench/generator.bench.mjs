// Generator benchmarks (`npm run bench:generator`, not part of `npm test`):
// (1) `kubeforge manifests` + `kubeforge generate` on a synthetic project of 100 kinds, side by side with
//     ts-json-schema-generator making plain JSON schema for the same types (with its default type check, and with
//     --no-type-check), like for like: every kubeforge round starts with every cache of kubeforge cold — the V8
//     code cache of the TypeScript compiler (src/reader/compiler-code-cache.ts, in the node_modules holding the
//     compiler) and the model cache through which generate reuses what manifests read (src/reader/model-cache.ts,
//     in the project's node_modules) — so both tools compile the compiler afresh in every run.
//     ts-json-schema-generator keeps no cache on disk, and Node 20 has no module compile cache; NODE_COMPILE_CACHE
//     is removed from both tools' environments all the same. Fresh processes, rounds interleaved (the machine is
//     shared), medians of BENCH_RUNS (5) and the median of the per-round ratios. A row with the compiler's code
//     cache kept from the run before shows what a second `make manifests` costs.
// (1c) the same cold `manifests` + `generate` on an API of ~16,000 lines (bench/large-api-project.mjs: 4 groups,
//     nested structs, CEL and validation markers, Kubernetes-type fields), the size of the largest real port;
// (2) deep copy of a CronJob with a full job template: the generated helper vs structuredClone vs
//     JSON.parse(JSON.stringify(...)), medians and ratios.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync, cpSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import { isDeepStrictEqual } from 'node:util';
import { writeSyntheticProject } from './synthetic-project.mjs';
import { writeLargeApiProject } from './large-api-project.mjs';
import { cronJobSample } from './cronjob-sample.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'bin/kubeforge.js');
const tjsgCli = join(repo, 'node_modules/ts-json-schema-generator/bin/ts-json-schema-generator.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KINDS = Number(process.env.BENCH_KINDS ?? 100);
const LARGE_API_LINES = Number(process.env.BENCH_LARGE_API_LINES ?? 16000);

if (!existsSync(join(repo, 'dist/cli/main.js'))) {
  console.error('dist/ is missing: run `npm run build` first (npm run bench:generator does).');
  process.exit(1);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The environment of every measured process: no module compile cache for either tool. */
const benchEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_COMPILE_CACHE'));

/**
 * CPU time (user + system, ms) of this process's finished children, from /proc/self/stat (cutime + cstime, in
 * clock ticks of 10 ms); undefined where there is no /proc. Unlike wall time it barely moves when other work
 * shares the cores, so it is reported next to it.
 */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** Runs node with `args`; its wall time and CPU time in ms (cpu NaN where it cannot be read). */
function measure(args, cwd, env = benchEnv) {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env });
  const wall = performance.now() - started;
  if (result.status !== 0) {
    const output = `${result.stderr}${result.stdout}`.split('\n').slice(0, 20).join('\n');
    throw new Error(`${args.join(' ')} failed (${result.status}):\n${output}`);
  }
  const cpuAfter = childrenCpuMs();
  return { wall, cpu: cpuBefore === undefined || cpuAfter === undefined ? NaN : cpuAfter - cpuBefore };
}

function run(args, cwd, env = benchEnv) {
  return measure(args, cwd, env).wall;
}

/** Where kubeforge keeps the V8 code cache of the TypeScript compiler it loads (see src/reader/typescript.ts). */
async function compilerCodeCacheFolder() {
  const { cacheFolderHolding } = await import(pathToFileURL(join(repo, 'dist/reader/cache-files.js')).href);
  const fromTsMorph = createRequire(createRequire(join(repo, 'dist/reader/typescript.js')).resolve('ts-morph'));
  const compiler = join(dirname(fromTsMorph.resolve('@ts-morph/common')), 'typescript.js');
  return cacheFolderHolding(compiler);
}
const codeCacheFolder = await compilerCodeCacheFolder();

/** Removes the compiler's code cache; returns how many files there were. */
function clearCompilerCodeCache() {
  if (codeCacheFolder === undefined || !existsSync(codeCacheFolder)) return 0;
  const files = readdirSync(codeCacheFolder).filter((f) => f.endsWith('.v8-code-cache'));
  for (const file of files) rmSync(join(codeCacheFolder, file), { force: true });
  return files.length;
}

/** A project folder the generator commands accept (PROJECT, node_modules for the model cache, a tsconfig for tjsg). */
function makeProject(prefix, write) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const written = write(dir);
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
  // A made project has node_modules; its .cache/kubeforge/models holds the model manifests saves for generate.
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  return { dir, written };
}

/** Code-cache files removed before cold runs: proof that they existed, i.e. that the clearing is not a no-op. */
let codeCachesRemoved = 0;

/** The project's outputs and its model cache removed; with `compiler`, the compiler's code cache too. */
function fresh(dir, { compiler = true } = {}) {
  rmSync(join(dir, 'config'), { recursive: true, force: true });
  for (const file of spawnSync('sh', ['-c', 'find api -name zz_generated.deepcopy.ts'], { cwd: dir, encoding: 'utf8' }).stdout.split('\n').filter(Boolean)) rmSync(join(dir, file));
  rmSync(join(dir, 'node_modules/.cache'), { recursive: true, force: true });
  if (compiler) codeCachesRemoved += clearCompilerCodeCache();
}

/** `manifests` then `generate`, in two processes, as `make manifests generate` runs them. */
function manifestsAndGenerate(dir, extra = [], env = benchEnv) {
  const manifests = measure([cli, 'manifests', '--root', dir, ...extra], dir, env);
  const generate = measure([cli, 'generate', '--root', dir], dir, env);
  return { manifests: manifests.wall, generate: generate.wall, total: manifests.wall + generate.wall, cpu: manifests.cpu + generate.cpu };
}

function generatorBenchmark() {
  const { dir } = makeProject('kubeforge-bench-', (d) => writeSyntheticProject(d, KINDS));
  const large = makeProject('kubeforge-bench-large-', (d) => writeLargeApiProject(d, LARGE_API_LINES));
  const noModelCache = { ...benchEnv, KUBEFORGE_NO_MODEL_CACHE: '1' };
  const rows = { cold: [], manifestsOnly: [], generateOnly: [], warmCodeCache: [], noDesc: [], noModelCache: [], tjsg: [], tjsgNoCheck: [], large: [], largeManifests: [] };
  const cpu = { cold: [], tjsg: [], tjsgNoCheck: [], large: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      fresh(dir);
      const cold = manifestsAndGenerate(dir);
      rows.cold.push(cold.total);
      cpu.cold.push(cold.cpu);
      rows.manifestsOnly.push(cold.manifests);
      rows.generateOnly.push(cold.generate);
      // the compiler's code cache the cold run just wrote is kept: a second `make manifests generate`
      fresh(dir, { compiler: false });
      rows.warmCodeCache.push(manifestsAndGenerate(dir).total);
      const tjsg = measure([tjsgCli, '--path', 'api/v1/*_types.ts', '--type', '*', '--tsconfig', 'tsconfig.json', '-o', join(dir, 'out/schema.json')], dir);
      const tjsgNoCheck = measure([tjsgCli, '--path', 'api/v1/*_types.ts', '--type', '*', '--tsconfig', 'tsconfig.json', '--no-type-check', '-o', join(dir, 'out/schema-nc.json')], dir);
      rows.tjsg.push(tjsg.wall);
      rows.tjsgNoCheck.push(tjsgNoCheck.wall);
      cpu.tjsg.push(tjsg.cpu);
      cpu.tjsgNoCheck.push(tjsgNoCheck.cpu);
      fresh(dir);
      rows.noDesc.push(manifestsAndGenerate(dir, ['--max-desc-len', '0']).total);
      fresh(dir);
      rows.noModelCache.push(manifestsAndGenerate(dir, [], noModelCache).total);
      fresh(large.dir);
      const big = manifestsAndGenerate(large.dir);
      rows.large.push(big.total);
      cpu.large.push(big.cpu);
      rows.largeManifests.push(big.manifests);
    }
    const count = (cmd, cwd) => spawnSync('sh', ['-c', cmd], { cwd, encoding: 'utf8' }).stdout.trim();
    run([cli, 'manifests', '--root', dir], dir);
    run([cli, 'manifests', '--root', large.dir], large.dir);
    // Per-run ratios (tool ÷ kubeforge in the same round) are steadier than a ratio of medians on a busy machine.
    const roundRatio = (times) => median(times.map((t, i) => t / rows.cold[i]));
    return {
      medians: Object.fromEntries(Object.entries(rows).map(([name, times]) => [name, median(times)])),
      fastest: Object.fromEntries(Object.entries(rows).map(([name, times]) => [name, Math.min(...times)])),
      cpu: Object.fromEntries(Object.entries(cpu).map(([name, times]) => [name, median(times)])),
      tjsgCpuRatio: median(cpu.tjsg.map((t, i) => t / cpu.cold[i])),
      tjsgNoCheckCpuRatio: median(cpu.tjsgNoCheck.map((t, i) => t / cpu.cold[i])),
      tjsgRoundRatio: roundRatio(rows.tjsg),
      tjsgNoCheckRoundRatio: roundRatio(rows.tjsgNoCheck),
      crdCount: count('ls config/crd/bases | wc -l', dir),
      outputBytes: Number(count('cat config/crd/bases/* | wc -c', dir)),
      large: { ...large.written, crdCount: count('find config/crd/bases -name "*.yaml" | wc -l', large.dir), outputBytes: Number(count('cat config/crd/bases/* | wc -c', large.dir)) },
      codeCacheFolder,
      codeCachesRemoved,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(large.dir, { recursive: true, force: true });
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
console.log(`kubeforge generator benchmarks — node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at start, median of ${RUNS} rounds`);
console.log('');
const g = generatorBenchmark();
const m = g.medians;
console.log(`(1) ${KINDS} kinds (~20 fields, markers, embedded PodTemplateSpec) → ${g.crdCount} CRDs (${(g.outputBytes / 1e6).toFixed(1)} MB of CRD YAML with descriptions kept) + role + deep copy`);
console.log(`every cache cold: the compiler's code cache (${g.codeCacheFolder}; ${g.codeCachesRemoved} files written by earlier runs removed in all) and the project's model cache removed before each cold run`);
console.log('| tool | median wall time | ÷ kubeforge manifests + generate, cold |');
console.log('| --- | ---: | ---: |');
const row = (label, ms) => console.log(`| ${label} | ${fmtMs(ms)} | ${(ms / m.cold).toFixed(2)} |`);
row('kubeforge manifests + generate, every cache cold', m.cold);
row('kubeforge manifests alone (cold)', m.manifestsOnly);
row('kubeforge generate alone, after manifests (reuses its saved model)', m.generateOnly);
row('kubeforge manifests + generate, compiler code cache kept from the run before', m.warmCodeCache);
row('kubeforge manifests + generate, cold, KUBEFORGE_NO_MODEL_CACHE=1 (each command parses the types)', m.noModelCache);
row('kubeforge manifests --max-desc-len 0 + generate, cold', m.noDesc);
row('ts-json-schema-generator 2.4.0 (default, type-checks)', m.tjsg);
row('ts-json-schema-generator 2.4.0 --no-type-check', m.tjsgNoCheck);
console.log(`ts-json-schema-generator ÷ kubeforge (both cold), median of the per-round ratios: ${g.tjsgRoundRatio.toFixed(2)} (default), ${g.tjsgNoCheckRoundRatio.toFixed(2)} (--no-type-check)`);
console.log(
  `CPU time (user + system), medians: kubeforge cold ${fmtMs(g.cpu.cold)}, ts-json-schema-generator ${fmtMs(g.cpu.tjsg)} / --no-type-check ${fmtMs(g.cpu.tjsgNoCheck)}; ratio of CPU time ${g.tjsgCpuRatio.toFixed(2)} / ${g.tjsgNoCheckCpuRatio.toFixed(2)}`,
);
const verdict = (ok) => (ok ? 'met' : 'MISSED');
console.log(
  `fastest rounds (the least disturbed by other work on the machine): kubeforge cold ${fmtMs(g.fastest.cold)}, ts-json-schema-generator ${fmtMs(g.fastest.tjsg)} / --no-type-check ${fmtMs(g.fastest.tjsgNoCheck)}, the ${g.large.lines}-line API ${fmtMs(g.fastest.large)}`,
);
console.log(`targets: cold manifests + generate under 1.5 s: ${fmtMs(m.cold)} — ${verdict(m.cold < 1500)}; at least 2× faster than ts-json-schema-generator: ${g.tjsgRoundRatio.toFixed(2)}× / ${g.tjsgNoCheckRoundRatio.toFixed(2)}× — ${verdict(Math.min(g.tjsgRoundRatio, g.tjsgNoCheckRoundRatio) >= 2)}`);
console.log('');
console.log(`(1c) an API of ${g.large.lines} lines (${g.large.kinds} kinds in 4 groups; bench/large-api-project.mjs) → ${g.large.crdCount} CRDs (${(g.large.outputBytes / 1e6).toFixed(1)} MB), role and webhooks + deep copy, every cache cold`);
console.log(`kubeforge manifests + generate: ${fmtMs(m.large)} (manifests alone ${fmtMs(m.largeManifests)}; CPU time ${fmtMs(g.cpu.large)})`);
console.log(`target: under 2 s — ${verdict(m.large < 2000)}`);
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
