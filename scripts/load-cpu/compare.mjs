// Before/after of the load and test CPU of the same test files in two checkouts (say an export of main and
// this branch, each with node_modules), interleaved round by round so both see the same machine load:
//   node scripts/load-cpu/compare.mjs <before checkout> <after checkout> [--rounds N] <test paths relative to a checkout…>
// A first round in each checkout is not recorded (it fills jest's transform cache). Prints the medians per
// file and their sums.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const [before, after, ...files] = roundsAt >= 0 ? [...args.slice(0, roundsAt), ...args.slice(roundsAt + 2)] : args;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One round in `checkout`: per file {loadCpu, testCpu}. */
function measureOnce(checkout, round) {
  const out = path.join(os.tmpdir(), `load-cpu-compare-${process.pid}-${round}.json`);
  const order = files.map((_, i) => files[(i + round) % files.length]);
  const result = spawnSync(process.execPath, [path.join(checkout, 'scripts/load-cpu/measure.mjs'), 'files', '--rounds', '1', ...order], { cwd: checkout, env: { ...process.env, LOAD_CPU_JSON: out }, encoding: 'utf8' });
  if (result.status !== 0) process.stderr.write(result.stderr);
  const rows = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  return rows;
}

// a first, unrecorded round in each checkout fills jest's transform cache (keyed by path) so no round pays swc
measureOnce(before, 0);
measureOnce(after, 0);
const samples = { before: new Map(), after: new Map() };
for (let round = 0; round < rounds; round++) {
  for (const [which, checkout] of round % 2 ? [['after', after], ['before', before]] : [['before', before], ['after', after]]) {
    for (const row of measureOnce(checkout, round)) {
      if (!samples[which].has(row.file)) samples[which].set(row.file, []);
      samples[which].get(row.file).push(row);
    }
  }
}
const totals = { before: { load: 0, test: 0 }, after: { load: 0, test: 0 } };
console.log('load CPU-s before → after | test CPU-s before → after | file (medians of', rounds, 'rounds)');
for (const file of files) {
  const cells = {};
  for (const which of ['before', 'after']) {
    const rows = (samples[which].get(file) ?? []).filter((r) => Number.isFinite(r.loadCpu));
    cells[which] = { load: median(rows.map((r) => r.loadCpu)), test: median(rows.map((r) => r.testCpu)) };
    totals[which].load += cells[which].load;
    totals[which].test += cells[which].test;
  }
  console.log(`${cells.before.load.toFixed(3)} → ${cells.after.load.toFixed(3)} | ${cells.before.test.toFixed(3)} → ${cells.after.test.toFixed(3)} | ${file}`);
}
console.log(`sum: load ${totals.before.load.toFixed(2)} → ${totals.after.load.toFixed(2)} CPU-s, tests ${totals.before.test.toFixed(2)} → ${totals.after.test.toFixed(2)} CPU-s`);
