/**
 * The `kubeforge` command line: builds the commander program from one module per command and runs it.
 * Each command module exports `register(program)`; this file only wires them together, and sets how every
 * command reports a usage error: the error, then a one-line pointer to its `--help` (not the whole help).
 */
import { Command, CommanderError } from 'commander';
import { requiredOptionHelp } from './required-options.js';
import * as version from './version.js';

/** A command module: adds its command (and sub-commands) to the program. */
export type CommandModule = { register(program: Command): void };

/**
 * `kubeforge manifests` and `kubeforge generate` load only their own command modules: the others import the
 * local cluster, certificates and templates at the top (about a second), which a generator run never uses.
 */
const GENERATOR_COMMANDS = new Set(['manifests', 'generate']);

/** Command modules, in the order `kubeforge --help` lists them (only the generator's for a generator command). */
async function commandModules(command?: string): Promise<CommandModule[]> {
  if (command !== undefined && GENERATOR_COMMANDS.has(command)) return [await import('./manifests.js'), await import('./generate.js')];
  return [
    await import('./manifests.js'),
    await import('./generate.js'),
    await import('./markers.js'),
    await import('./cluster.js'),
    await import('./init.js'),
    await import('./create.js'),
    await import('./edit.js'),
    await import('./alpha.js'),
    await import('./dev.js'),
    version,
  ];
}

/** `kubeforge create api`, as the user types it. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** After a usage error, every command points at its own help in one line. */
function pointAtHelp(command: Command): void {
  command.showHelpAfterError(`Run '${commandPath(command)} --help' for its options.`);
  for (const sub of command.commands) pointAtHelp(sub);
}

/** commander suggests "(Did you mean --version?)"; kubeforge's messages say "did you mean" in lower case. */
function writeError(text: string, write: (text: string) => void): void {
  write(text.replace(/\n?\(Did you mean /, ' (did you mean '));
}

/** Builds the program; exported for tests that drive the CLI in-process. */
export async function buildProgram(command?: string): Promise<Command> {
  const program = new Command('kubeforge')
    .description('kubebuilder for TypeScript: scaffold operators, generate CRDs/RBAC/webhooks, run them locally')
    .version(`${version.versionLines().join('\n')}`, '-V, --version', 'print the version and the Kubernetes, controller-runtime and controller-tools levels (as `kubeforge version`)')
    // Program options only before the command, so `create api --version v1` is the command's flag.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ outputError: writeError })
    .configureHelp(requiredOptionHelp);
  for (const module of await commandModules(command)) module.register(program);
  pointAtHelp(program);
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv[2]);
  let exitCode: number;
  try {
    await program.parseAsync(argv);
    exitCode = process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    throw err;
  }
  return exitCode;
}
