/**
 * `kubeforge dev` (`make dev`): the command's options; the inner loop itself (dev-loop.ts: local cluster,
 * build, manager, watcher) and the TypeScript compiler it loads are imported only when the command runs,
 * so that every other command starts without them.
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('dev')
    .description('the inner loop: local cluster, build, manager; on each save regenerate, re-apply CRDs, rebuild and restart (make dev)')
    .usage('[options] [-- manager flags]')
    .option('--root <dir>', 'project root', '.')
    .option('--fresh', 'start the local cluster empty (deletes .kubeforge/cluster)')
    .argument('[manager-flags...]', "the manager's flags (kubeforge/runtime's parseManagerFlags), after --, e.g. -- --health-probe-bind-address=:0")
    .action(async (managerArgs: string[], opts: { root: string; fresh?: boolean }) => {
      const { runDev } = await import('./dev-loop.js');
      process.exitCode = await runDev({ root: opts.root, fresh: opts.fresh, managerArgs });
    });
}
