/**
 * The process `kubeforge dev` runs the manager in. It is started ahead of time, while the current manager
 * still runs: it loads the modules every manager needs (kubeforge's runtime, the YAML parser, the logger)
 * and waits. On a restart `dev` sends it the compiled entry point (dist/cmd/run-local.js) and its
 * arguments, so the new manager starts without paying for Node's start-up and those imports. Before that
 * it exits quietly on SIGINT/SIGTERM; once running it ends like the manager it runs, and stops that
 * manager (SIGTERM) if `dev` goes away without asking.
 *
 * Arguments: the project root, then the bare module names to load from there (`kubeforge/runtime` …).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What `dev` sends: the entry point to import and the arguments it sees in process.argv. */
export interface ManagerStart {
  entry: string;
  args: string[];
}

async function preload(root: string, modules: string[]): Promise<void> {
  const resolveFromProject = createRequire(join(root, 'package.json')).resolve;
  for (const name of modules) {
    // A module the project cannot resolve is loaded when the manager imports it, as without a host.
    let path: string;
    try {
      path = resolveFromProject(name);
    } catch {
      continue;
    }
    await import(pathToFileURL(path).href);
  }
}

async function host(): Promise<void> {
  const [root = process.cwd(), ...modules] = process.argv.slice(2);
  const quit = (): void => process.exit(0);
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  process.once('disconnect', quit);
  await preload(root, modules);
  const start = await new Promise<ManagerStart>((received) => {
    process.once('message', (message) => received(message as ManagerStart));
    process.send?.('ready');
  });
  process.off('SIGINT', quit);
  process.off('SIGTERM', quit);
  process.off('disconnect', quit);
  // From here the manager's own signal handling ends the process; `dev` gone means stop it.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  process.channel?.unref();
  process.argv = [process.argv[0]!, start.entry, ...start.args];
  await import(pathToFileURL(start.entry).href);
}

host().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
