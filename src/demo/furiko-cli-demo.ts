/**
 * The Furiko CLI part of the demo (examples/jobconfig's `furiko`, a kubectl plugin): the transpiled CLI is
 * put on the PATH as `kubectl-furiko`, one ad-hoc Job is started from the JobConfig sample with
 * `kubectl furiko run jobconfig-sample --option user-name=Demo`, shown after the run with
 * `kubectl furiko get job`, and checked: created by the CLI, of type Adhoc, with the option given, succeeded.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineKind, isNotFound, type KubeObject } from '../runtime/index.js';
import type { TestEnv } from '../testing/index.js';

const FurikoJobKind = defineKind<KubeObject & { spec?: { type?: string; optionValues?: string }; status?: { phase?: string } }>({
  group: 'execution.furiko.io',
  version: 'v1alpha1',
  kind: 'Job',
  plural: 'jobs',
  namespaced: true,
});

/** The command the demo runs, and the option value it passes. */
export const FURIKO_RUN_ARGS = ['furiko', 'run', 'jobconfig-sample', '--option', 'user-name=Demo'];

/** Where the plugin is and the environment kubectl runs it in. */
export interface FurikoPlugin {
  env: NodeJS.ProcessEnv;
}

/**
 * Writes `<dir>/bin/kubectl-furiko` running the transpiled CLI (`<builtDir>/cmd/furiko/main.js`); kubectl
 * finds it with `<dir>/bin` first on the PATH, a HOME and KUBECACHEDIR of its own under `dir`, and the
 * cluster in KUBECONFIG (kubectl refuses flags such as --kubeconfig before a plugin's name).
 */
export function installFurikoPlugin(builtDir: string, dir: string, kubeconfig: string): FurikoPlugin {
  const binDir = join(dir, 'bin');
  mkdirSync(binDir, { recursive: true });
  const plugin = join(binDir, 'kubectl-furiko');
  writeFileSync(plugin, `#!/bin/sh\nexec "${process.execPath}" "${join(builtDir, 'cmd/furiko/main.js')}" "$@"\n`);
  chmodSync(plugin, 0o755);
  return { env: { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: dir, KUBECACHEDIR: join(dir, 'kubectl-cache'), KUBECONFIG: kubeconfig } };
}

function kubectlFuriko(plugin: FurikoPlugin, args: string[]): Promise<string> {
  console.log(`\n$ kubectl ${args.join(' ')}`);
  return new Promise((done, fail) => {
    execFile('kubectl', args, { env: plugin.env, timeout: 60_000 }, (err, stdout, stderr) => {
      console.log((stdout + (err ? stderr : '')).trimEnd());
      if (err) fail(new Error(`kubectl ${args.join(' ')} failed: ${err.message}`));
      else done(stdout);
    });
  });
}

/** Starts the ad-hoc Job with the CLI; returns its name (from `Job default/<name> created`). */
export async function runAdhocJob(env: TestEnv, plugin: FurikoPlugin): Promise<string> {
  console.log('\n── an ad-hoc Job from the JobConfig sample, started with the furiko CLI as a kubectl plugin (examples/jobconfig/cmd/furiko)');
  const out = await kubectlFuriko(plugin, FURIKO_RUN_ARGS);
  const name = /^Job default\/(\S+) created$/m.exec(out)?.[1];
  if (!name) throw new Error(`kubectl furiko run printed no "Job default/<name> created" line: ${out}`);
  await env.settle();
  return name;
}

/** `kubectl furiko get job <name>`: Furiko's description of the Job. */
export async function showAdhocJob(plugin: FurikoPlugin, name: string): Promise<void> {
  console.log('\n── the ad-hoc Job as the furiko CLI describes it');
  await kubectlFuriko(plugin, ['furiko', 'get', 'job', name]);
}

/** The summary line: the CLI's Job is Adhoc, carries the option given and succeeded. */
export async function adhocJobCheck(env: TestEnv, name: string): Promise<{ met: boolean; line: string; closing: string }> {
  let job;
  try {
    job = await env.manager.apiReader().get(FurikoJobKind, { namespace: 'default', name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const phase = job?.status?.phase ?? 'gone';
  const optionValues = job?.spec?.optionValues ?? '';
  const met = job?.spec?.type === 'Adhoc' && phase === 'Succeeded' && optionValues === '{"user-name":"Demo"}';
  return {
    met,
    line: `Furiko Job ${name} (kubectl furiko run): type ${job?.spec?.type ?? 'unknown'}, optionValues ${optionValues || '(none)'}, ${phase}`,
    closing: `the furiko CLI's ad-hoc Job ${name} succeeded`,
  };
}
