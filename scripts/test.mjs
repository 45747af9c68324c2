// `npm test`: builds dist/ and type-checks the repository (two tsc programs side by side), then runs jest
// over the tests (or the paths and flags given after `npm test --`), printing one line per phase.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(checkout, 'node_modules/typescript/bin/tsc');
const jest = join(checkout, 'node_modules/jest/bin/jest.js');

/** Runs node with `args` in the checkout; resolves to its exit status and output, or streams it when `inherit`. */
function runNode(args, { inherit = false, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: checkout, env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? 1, output: signal ? `${output}killed by ${signal}\n` : output }));
  });
}

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

// Phase 1: tsconfig.build.json emits dist/ from src without jest's globals; tsconfig.json checks src, e2e and
// examples/ in one program. Neither needs the other, so on two cores they run at once.
const compileStart = performance.now();
const [build, check] = await Promise.all([runNode([tsc, '-p', 'tsconfig.build.json']), runNode([tsc, '-p', 'tsconfig.json'])]);
if (build.code !== 0 || check.code !== 0) {
  process.stdout.write(build.output + check.output);
  const failed = [build.code !== 0 ? 'build (tsconfig.build.json)' : '', check.code !== 0 ? 'type-check (tsconfig.json)' : ''].filter(Boolean);
  console.log(`build + type-check: ${failed.join(' and ')} failed after ${seconds(compileStart)}`);
  process.exit(1);
}
console.log(`build + type-check: dist/ built, src, e2e and examples checked in ${seconds(compileStart)}`);

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
const jestEnv = { ...process.env, GOGC: process.env.GOGC ?? '400', NODE_OPTIONS: nodeOptions };
const tests = await runNode(['--experimental-vm-modules', jest, ...workerArgs, ...jestArgs], { inherit: true, env: jestEnv });
console.log(`jest: ${files} files ${tests.code === 0 ? 'passed' : 'FAILED'} in ${seconds(jestStart)} (whole npm test ${seconds(compileStart)})`);
process.exit(tests.code);
