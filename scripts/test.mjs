// `npm test`: builds dist/ and type-checks the repository (two tsc programs side by side), then runs jest
// over the tests (or the paths and flags given after `npm test --`) once dist/ is built, the type-check
// finishing beside it; one line per phase.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(checkout, 'node_modules/typescript/bin/tsc');
const jest = join(checkout, 'node_modules/jest/bin/jest.js');

/** Runs node with `args` in the checkout; resolves to its exit status and output, or streams it when `inherit`. */
function runNode(args, options = {}) {
  return startNode(args, options).done;
}

/** Starts node with `args` in the checkout: the child, and a promise of its exit status and output. */
function startNode(args, { inherit = false, env = process.env } = {}) {
  const child = spawn(process.execPath, args, { cwd: checkout, env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const done = new Promise((resolve) => {
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? 1, output: signal ? `${output}killed by ${signal}\n` : output }));
  });
  return { child, done };
}

/**
 * The tests' temporary folder: a fresh one in /dev/shm (tmpfs) on Linux when it has 4 GiB free and TMPDIR is
 * not set (set TMPDIR to choose another). The suite writes and deletes a few GB of made projects, npm trees and
 * cluster data; on a disk file system much of npm's and tar's CPU goes to the file system's bookkeeping (on this
 * machine's ext4 about 40 % of an `npm ci`: 18–19 against 9–10 CPU-s on tmpfs). World-writable and sticky like
 * /tmp (a test runs a process as another user); removed at the end, and by a later run when the run that made
 * it was killed (its pid file names a process that is gone). Undefined: the system's folder as it is.
 */
function memoryScratchFolder() {
  if (process.env.TMPDIR || process.platform !== 'linux') return undefined;
  try {
    for (const name of readdirSync('/dev/shm').filter((n) => n.startsWith('kubeforge-test-'))) {
      const folder = join('/dev/shm', name);
      let owner;
      try {
        owner = Number(readFileSync(join(folder, '.owner-pid'), 'utf8'));
        process.kill(owner, 0);
      } catch (err) {
        // no pid file yet: another run may be making the folder this moment, so only an old one goes
        const gone = owner === undefined ? Date.now() - statSync(folder).mtimeMs > 60_000 : err.code === 'ESRCH';
        if (gone) rmSync(folder, { recursive: true, force: true });
      }
    }
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < 4 * 2 ** 30) return undefined;
    const folder = mkdtempSync('/dev/shm/kubeforge-test-');
    chmodSync(folder, 0o1777);
    writeFileSync(join(folder, '.owner-pid'), String(process.pid));
    return folder;
  } catch {
    return undefined;
  }
}

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

// Phase 1: tsconfig.build.json emits dist/ from src without jest's globals; tsconfig.json checks src, e2e and
// examples/ in one program. Neither needs the other, so on two cores they run at once. Only the tests need
// dist/ (end-to-end files run it): jest starts when the build is done, and the type-check, which takes a few
// seconds longer, finishes beside jest's first files instead of holding a core idle — a failed type-check
// stops jest and fails the run.
const compileStart = performance.now();
const checking = startNode([tsc, '-p', 'tsconfig.json']);
const build = await runNode([tsc, '-p', 'tsconfig.build.json']);
if (build.code !== 0) {
  checking.child.kill();
  process.stdout.write(build.output);
  console.log(`build: tsconfig.build.json failed after ${seconds(compileStart)}`);
  process.exit(1);
}
console.log(`build: dist/ built in ${seconds(compileStart)}; type-check of src, e2e and examples goes on beside jest`);

// Phase 2: jest, three workers unless the arguments choose otherwise: on two cores a third keeps the CPU busy
// while the end-to-end files wait on real time (kubectl's Retry-After, process pods, npm).
const jestArgs = process.argv.slice(2);
const workersChosen = jestArgs.some((a) => /^(-w|--maxWorkers|-i|--runInBand)(=|$)/.test(a));
const workerArgs = workersChosen ? [] : ['--maxWorkers=3'];
// the same selection, listed (without report options such as --json that would change the listing's form)
const listArgs = jestArgs.filter((a, i) => !/^--(json|outputFile)(=|$)/.test(a) && !(jestArgs[i - 1] === '--outputFile' && !a.startsWith('-')));
const listed = await runNode(['--experimental-vm-modules', jest, '--listTests', ...listArgs]);
const files = listed.output.split('\n').filter((line) => line.startsWith('/')).length;
console.log(`jest: ${files} files${workersChosen ? '' : ', 3 workers'} …`);
const jestStart = performance.now();
// The kubectl the tests start (a Go program, short-lived) collects garbage less often: less CPU, same output.
// Node's young generation gets room for the many short-lived objects module loading makes (about 5 % less
// CPU in the workers and the node processes the tests start).
const nodeOptions = [process.env.NODE_OPTIONS, /--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '') ? '' : '--max-semi-space-size=32'].filter(Boolean).join(' ');
const scratch = memoryScratchFolder();
// jest keeps its transform cache where it would without the scratch folder (warm from run to run)
const cacheChosen = jestArgs.some((a) => /^(--cacheDirectory|--config|-c)(=|$)/.test(a));
const cacheArgs = scratch && !cacheChosen && process.getuid ? [`--cacheDirectory=${join(realpathSync(tmpdir()), `jest_${process.getuid().toString(36)}`)}`] : [];
if (scratch) console.log(`jest: temporary files in ${scratch} (tmpfs; set TMPDIR to choose another folder)`);
const removeScratch = () => scratch && rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    removeScratch();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}
const jestEnv = { ...process.env, GOGC: process.env.GOGC ?? '400', NODE_OPTIONS: nodeOptions, ...(scratch ? { TMPDIR: scratch } : {}) };
const running = startNode(['--experimental-vm-modules', jest, ...workerArgs, ...cacheArgs, ...jestArgs], { inherit: true, env: jestEnv });
const check = await checking.done;
if (check.code !== 0) {
  running.child.kill('SIGTERM');
  await running.done;
  removeScratch();
  process.stdout.write(check.output);
  console.log(`type-check: tsconfig.json failed after ${seconds(compileStart)}; jest stopped`);
  process.exit(1);
}
console.log(`type-check: src, e2e and examples checked in ${seconds(compileStart)}`);
const tests = await running.done;
removeScratch();
console.log(`jest: ${files} files ${tests.code === 0 ? 'passed' : 'FAILED'} in ${seconds(jestStart)} (whole npm test ${seconds(compileStart)})`);
process.exit(tests.code);
