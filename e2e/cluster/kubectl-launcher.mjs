// Starts kubectl runs for a test file's Kubectl (kubectl-runner.ts): one request a line on stdin
// ({ id, file, args, env, input, timeout }), one answer a line on stdout ({ id, code, stdout, stderr }).
// Forking this small process is cheap; forking the jest worker itself (hundreds of MB to GBs resident)
// costs the worker several ms of page-table copying per run. Exits once stdin ends and its runs are done.
import { execFile } from 'node:child_process';
import { createInterface } from 'node:readline';

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, file, args, env, input, timeout } = JSON.parse(line);
  const child = execFile(file, args, { env, timeout }, (err, stdout, stderr) => {
    const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
    process.stdout.write(`${JSON.stringify({ id, code, stdout: String(stdout), stderr: String(stderr) })}\n`);
  });
  child.stdin?.on('error', () => {}); // a kubectl that exits before reading its input
  child.stdin?.end(input ?? undefined);
});
