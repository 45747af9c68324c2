// Which processes a command starts and what each costs (issue 14: a test file's child CPU, broken down):
//   node scripts/load-cpu/process-tree.mjs <command> [args…]
// e.g. node scripts/load-cpu/process-tree.mjs node --experimental-vm-modules node_modules/jest/bin/jest.js --maxWorkers=1 <test file>
// Runs the command and samples /proc every 15 ms: the CPU (user+system) of every process below it, summed
// per chain of labels from the command's child down ("make>npx>tsc": a tsc that npx started for make;
// a node process is labelled by its script). Prints the chains by CPU-s with their process counts, and
// writes them as JSON to $PROCESS_TREE_OUT when set. Sampled: a process that lives under 15 ms is missed,
// and one that exec()s keeps its first label (bash>tsc when bash started tsc itself); processes the
// command leaves behind are counted too (a detached cluster killed later), unlike /proc's cutime. Linux only.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('usage: node scripts/load-cpu/process-tree.mjs <command> [args…]\n');
  process.exit(2);
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const GENERIC = new Set(['?', 'node', 'sh', 'bash', 'env']);

/** A short name for a process: its executable, or for node the script it runs. */
function label(pid) {
  let argv;
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return '?';
  }
  if (argv.length === 0) return '?';
  const executable = path.basename(argv[0]);
  if (!executable.startsWith('node')) return executable;
  const script = argv.slice(1).find((a) => !a.startsWith('-'));
  if (script === undefined) return 'node';
  const name = path.basename(script);
  if (name === 'processChild.js') return 'jest-worker';
  if (script.includes('/jest/')) return 'jest';
  const short = name.replace(/\.m?js$/, '');
  // dist/cmd/main.js and the like: with their folder (cmd/main, cmd/run-local, cli/main)
  return ['main', 'index', 'cli', 'run-local'].includes(short) ? `${path.basename(path.dirname(script))}/${short}` : short;
}

/** pid → { ppid, cpu seconds, start time } of every process now. */
function snapshot() {
  const processes = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, start: Number(fields[19]) });
    } catch {
      // ended while listed
    }
  }
  return processes;
}

const child = spawn(command, args, { stdio: 'inherit' });
const seen = new Map(); // `${pid}@${start}` → { pid, ppid, label, cpu }
const current = new Map(); // pid → key in `seen` of the process now holding that pid

function sample() {
  const now = snapshot();
  const below = (pid) => {
    for (let depth = 0; depth < 40 && pid > 1; depth++) {
      if (pid === child.pid || current.has(pid)) return true;
      pid = now.get(pid)?.ppid ?? 0;
    }
    return false;
  };
  for (const [pid, stat] of now) {
    if (pid === child.pid) continue;
    const key = `${pid}@${stat.start}`;
    let known = seen.get(key);
    if (known === undefined) {
      if (!below(stat.ppid)) continue;
      known = { pid, ppid: stat.ppid, label: label(pid), cpu: 0 };
      seen.set(key, known);
      current.set(pid, key);
    } else if (GENERIC.has(known.label)) {
      known.label = label(pid); // after an exec
    }
    known.cpu = Math.max(known.cpu, stat.cpu);
  }
}

const timer = setInterval(sample, 15);
child.on('exit', (code, signal) => {
  clearInterval(timer);
  sample();
  const byPid = new Map([...seen.values()].map((p) => [p.pid, p]));
  const chain = (p) => {
    const labels = [];
    for (let at = p, depth = 0; at !== undefined && depth < 40; at = byPid.get(at.ppid), depth++) labels.unshift(at.label);
    return labels.join('>');
  };
  const groups = new Map();
  for (const p of seen.values()) {
    const key = chain(p);
    const group = groups.get(key) ?? { cpu: 0, count: 0 };
    group.cpu += p.cpu;
    group.count += 1;
    groups.set(key, group);
  }
  const rows = [...groups].sort((a, b) => b[1].cpu - a[1].cpu).map(([chainOf, g]) => ({ chain: chainOf, cpu: Number(g.cpu.toFixed(2)), count: g.count }));
  const total = rows.reduce((sum, r) => sum + r.cpu, 0);
  for (const r of rows) if (r.cpu >= 0.05) process.stdout.write(`${r.cpu.toFixed(2).padStart(7)} ${String(r.count).padStart(4)}  ${r.chain}\n`);
  process.stdout.write(`${total.toFixed(2).padStart(7)}       in all (sampled)\n`);
  if (process.env.PROCESS_TREE_OUT) writeFileSync(process.env.PROCESS_TREE_OUT, JSON.stringify({ total: Number(total.toFixed(2)), rows }, null, 2));
  process.exit(code ?? (signal ? 1 : 0));
});
