/**
 * `kubeforge init --install`: runs `npm install` in the made project and lets the user watch it — npm's
 * own progress on a terminal (its stdio is the user's), its output line by line otherwise (CI logs), and
 * install scripts in the foreground (a native module's build is otherwise minutes of silence).
 */
import { spawn } from 'node:child_process';
import type { RunOutput } from './generator-run.js';

export const NPM_INSTALL_ARGS = ['install', '--foreground-scripts'];

/** Runs npm install in `root`; resolves to 0, or 1 after saying how it failed. */
export function runNpmInstall(root: string, output: RunOutput, terminal = Boolean(process.stdout.isTTY)): Promise<number> {
  output.out(`Installing dependencies: npm ${NPM_INSTALL_ARGS.join(' ')} (in ${root}); npm's progress follows`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', NPM_INSTALL_ARGS, { cwd: root, env: process.env, stdio: terminal ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const forward = (write: (line: string) => void): ((chunk: Buffer) => void) => {
      let pending = '';
      return (chunk) => {
        const lines = (pending + chunk.toString()).split('\n');
        pending = lines.pop()!;
        for (const line of lines) write(line);
      };
    };
    child.stdout?.on('data', forward((l) => output.out(l)));
    child.stderr?.on('data', forward((l) => output.err(l)));
    child.on('error', (err) => {
      output.err(`kubeforge init: could not run npm (${err.message}); the project is made — install Node.js's npm and run \`npm install\` in ${root}`);
      resolve(1);
    });
    child.on('close', (code) => {
      if (code === 0) {
        output.out(`Installed dependencies in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve(0);
      } else {
        output.err(`kubeforge init: npm install failed (exit status ${code}); the project is made — fix the cause above and run \`npm install\` in ${root}`);
        resolve(1);
      }
    });
  });
}
