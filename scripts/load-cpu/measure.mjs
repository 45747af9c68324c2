// Measures what each jest test file spends loading modules (issue 14): jest runs every file in a fresh ESM vm
// context, so every module a file imports is evaluated again per file.
//   node scripts/load-cpu/measure.mjs files [--rounds N] <test paths…>   load and test CPU per file (medians)
//   node scripts/load-cpu/measure.mjs probes [--rounds N] <specifier…>   load CPU of a file importing only each
//                                                                       specifier, above an empty file's
//   node scripts/load-cpu/measure.mjs graph [--costs costs.json] [package…]   which test files load each package
//                                                                       statically, ranked by cost × files
// One jest worker; rounds interleave the files so load on the machine spreads evenly. CPU is user+system of
// the worker between jest-circus's events (scripts/load-cpu/environment.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticGraph } from './import-graph.mjs';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const jest = path.join(checkout, 'node_modules/jest/bin/jest.js');
const environment = path.join(checkout, 'scripts/load-cpu/environment.mjs');
const sequencer = path.join(checkout, 'scripts/load-cpu/sequencer.mjs');
const probes = path.join(checkout, '.load-cpu-probes');
const { default: jestConfig } = await import(path.join(checkout, 'jest.config.js'));
const probeMatch = [...jestConfig.testMatch, `${probes}/*.probe.test.ts`].map((m) => `--testMatch=${m}`);

/** A test file in .load-cpu-probes importing `body`'s modules (the folder exists only while measuring). */
function probe(name, body) {
  mkdirSync(probes, { recursive: true });
  const file = path.join(probes, `${name}.probe.test.ts`);
  writeFileSync(file, `${body}\ntest('loaded', () => {\n  expect(typeof probe).toBe('object');\n});\n`);
  return file;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Runs jest once over `files` in their order with the measuring environment; returns one record per file. */
function runJest(files) {
  const out = path.join(os.tmpdir(), `load-cpu-${process.pid}-${Date.now()}.jsonl`);
  writeFileSync(out, '');
  const absolute = files.map((f) => path.resolve(checkout, f));
  const result = spawnSync(process.execPath, ['--experimental-vm-modules', jest, '--maxWorkers=1', '--silent', `--testEnvironment=${environment}`, `--testSequencer=${sequencer}`, ...probeMatch, '--runTestsByPath', ...absolute], {
    cwd: checkout,
    env: { ...process.env, LOAD_CPU_OUT: out, LOAD_CPU_ORDER: JSON.stringify(absolute) },
    encoding: 'utf8',
  });
  if (result.status !== 0) process.stderr.write(`jest exited ${result.status}:\n${result.stderr.split('\n').slice(-30).join('\n')}\n`);
  const records = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  rmSync(out, { force: true });
  return records;
}

function roundsOf(args) {
  const i = args.indexOf('--rounds');
  if (i < 0) return { rounds: 3, rest: args };
  return { rounds: Number(args[i + 1]), rest: [...args.slice(0, i), ...args.slice(i + 2)] };
}

/** Runs `files` for `rounds` rounds (rotated order, a warm-up file first); medians per file. */
function measureFiles(files, rounds) {
  const samples = new Map(files.map((f) => [path.resolve(checkout, f), []]));
  // the first file of a worker pays for jest's own start; the warm-up takes that cost
  const warmUp = probe('warm-up', 'const probe = {};');
  try {
    for (let round = 0; round < rounds; round++) {
      const order = files.map((_, i) => files[(i + round) % files.length]);
      for (const r of runJest([warmUp, ...order])) samples.get(r.file)?.push(r);
    }
  } finally {
    rmSync(warmUp, { force: true });
    if (readdirSync(probes).length === 0) rmSync(probes, { recursive: true });
  }
  return [...samples].map(([file, rs]) => ({
    file: path.relative(checkout, file),
    runs: rs.length,
    loadCpu: rs.length ? median(rs.map((r) => r.loadCpu)) : NaN,
    testCpu: rs.length ? median(rs.map((r) => r.testCpu)) : NaN,
    frameworkCpu: rs.length ? median(rs.map((r) => r.frameworkCpu)) : NaN,
  }));
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'files') {
  const { rounds, rest } = roundsOf(args);
  const rows = measureFiles(rest, rounds);
  for (const r of rows) console.log(`${r.loadCpu.toFixed(3)} s load  ${r.testCpu.toFixed(3)} s tests  ${r.frameworkCpu.toFixed(3)} s jest  (${r.runs} runs)  ${r.file}`);
  if (process.env.LOAD_CPU_JSON) writeFileSync(process.env.LOAD_CPU_JSON, JSON.stringify(rows, null, 2));
} else if (mode === 'probes') {
  const { rounds, rest } = roundsOf(args);
  const empty = probe('empty', 'const probe = {};');
  const files = rest.map((spec, i) => probe(`p${i}`, `import * as probe from '${spec.startsWith('src/') ? path.join(checkout, spec) : spec}';`));
  try {
    const rows = measureFiles([empty, ...files], rounds);
    const base = rows[0].loadCpu;
    const costs = {};
    rest.forEach((spec, i) => (costs[spec] = rows[i + 1].loadCpu - base));
    console.log(`empty test file: ${base.toFixed(3)} s load`);
    for (const [spec, cost] of Object.entries(costs).sort((a, b) => b[1] - a[1])) console.log(`${cost.toFixed(3)} s  ${spec}`);
    if (process.env.LOAD_CPU_JSON) writeFileSync(process.env.LOAD_CPU_JSON, JSON.stringify(costs, null, 2));
  } finally {
    rmSync(probes, { recursive: true, force: true });
  }
} else if (mode === 'graph') {
  const i = args.indexOf('--costs');
  const costs = i >= 0 ? JSON.parse(readFileSync(args[i + 1], 'utf8')) : {};
  const wanted = (i >= 0 ? [...args.slice(0, i), ...args.slice(i + 2)] : args).filter(Boolean);
  const listed = spawnSync(process.execPath, ['--experimental-vm-modules', jest, '--listTests'], { cwd: checkout, encoding: 'utf8' });
  const tests = listed.stdout.split('\n').filter((l) => l.startsWith('/'));
  const memo = new Map();
  const loaders = new Map();
  for (const test of tests) {
    const { packages } = staticGraph(test, checkout, memo);
    for (const [name, importers] of packages) {
      if (!loaders.has(name)) loaders.set(name, []);
      loaders.get(name).push({ test: path.relative(checkout, test), importers: [...importers] });
    }
  }
  const names = wanted.length ? wanted : [...loaders.keys()];
  const ranked = names.map((name) => ({ name, files: loaders.get(name) ?? [], cost: costs[name] })).sort((a, b) => (b.cost ?? 0) * b.files.length - (a.cost ?? 0) * a.files.length || b.files.length - a.files.length);
  console.log(`${tests.length} test files`);
  for (const { name, files, cost } of ranked) {
    const total = cost === undefined ? '' : `  × ${cost.toFixed(3)} s = ${(cost * files.length).toFixed(1)} CPU-s`;
    // a test file loads the package "directly" when the test file itself or a helper outside src/ (non-test code) imports it
    const onlyThroughSrc = files.filter((f) => f.importers.every((imp) => imp.startsWith('src/') && !imp.endsWith('.test.ts') && !imp.includes('/testdata/')));
    console.log(`${name}: ${files.length} files${total}; ${onlyThroughSrc.length} only through kubeforge's own modules (${[...new Set(files.flatMap((f) => f.importers))].filter((imp) => !imp.endsWith('.test.ts')).slice(0, 6).join(', ')}${files.length ? ' …' : ''})`);
    if (process.env.LOAD_CPU_VERBOSE) for (const f of files) console.log(`    ${f.test}  ← ${f.importers.join(', ')}`);
  }
} else {
  console.error('usage: measure.mjs files|probes|graph …');
  process.exit(2);
}
