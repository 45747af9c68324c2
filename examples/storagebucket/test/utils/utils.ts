/*
Copyright 2026 The storagebucket Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * Helpers for the e2e tests, as kubebuilder's test/utils/utils.go: run a command from the project folder,
 * install and remove cert-manager and the Prometheus operator in the cluster of KUBECONFIG, split
 * command output into lines, and uncomment code in a file. (No kind image loading: the e2e tests run
 * against kubeforge's local cluster, `make setup-test-e2e`.)
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const prometheusOperatorVersion = 'v0.77.1';
const prometheusOperatorURL = `https://github.com/prometheus-operator/prometheus-operator/releases/download/${prometheusOperatorVersion}/bundle.yaml`;

const certmanagerVersion = 'v1.16.3';
const certmanagerURL = `https://github.com/cert-manager/cert-manager/releases/download/${certmanagerVersion}/cert-manager.yaml`;

/** The project folder (where package.json is): commands run there. */
export function getProjectDir(): string {
  return fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
}

/**
 * Runs `command` with `args` in the project folder and returns what it printed (stdout, then stderr); a
 * non-zero exit is an error that names the command and holds its output. Asynchronous, so tests may run
 * it against a cluster in the same process.
 */
export function run(command: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const line = [command, ...args].join(' ');
  process.stderr.write(`running: "${line}"\n`);
  return new Promise((resolve, reject) => {
    const settings = { cwd: getProjectDir(), env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 };
    const child = execFile(command, args, settings, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (err) reject(new Error(`"${line}" failed with error "${err.message.split('\n')[0]}": ${output}`));
      else resolve(output);
    });
    child.stdin?.end(options.input ?? '');
  });
}

/** Installs the Prometheus operator (its CRDs, e.g. ServiceMonitor) in the cluster. */
export async function installPrometheusOperator(): Promise<void> {
  await run('kubectl', ['create', '-f', prometheusOperatorURL]);
}

/** Removes the Prometheus operator; a failure is only reported. */
export async function uninstallPrometheusOperator(): Promise<void> {
  await run('kubectl', ['delete', '-f', prometheusOperatorURL]).catch(warnError);
}

/** True when any Prometheus CRD (…monitoring.coreos.com) is installed. */
export async function isPrometheusCRDsInstalled(): Promise<boolean> {
  const prometheusCRDs = ['prometheuses.monitoring.coreos.com', 'prometheusrules.monitoring.coreos.com', 'prometheusagents.monitoring.coreos.com'];
  const output = await run('kubectl', ['get', 'crds', '-o', 'custom-columns=NAME:.metadata.name']).catch(() => '');
  return getNonEmptyLines(output).some((crd) => prometheusCRDs.includes(crd.trim()));
}

/** Installs cert-manager and waits for its webhook to be available. */
export async function installCertManager(): Promise<void> {
  await run('kubectl', ['apply', '-f', certmanagerURL]);
  // Wait for cert-manager-webhook to be ready, which can take time if cert-manager was re-installed
  // after uninstalling on a cluster.
  await run('kubectl', ['wait', 'deployment.apps/cert-manager-webhook', '--for', 'condition=Available', '--namespace', 'cert-manager', '--timeout', '5m']);
}

/** Removes cert-manager; a failure is only reported. */
export async function uninstallCertManager(): Promise<void> {
  await run('kubectl', ['delete', '-f', certmanagerURL]).catch(warnError);
}

/** True when any cert-manager CRD (…cert-manager.io) is installed. */
export async function isCertManagerCRDsInstalled(): Promise<boolean> {
  const certManagerCRDs = [
    'certificates.cert-manager.io',
    'issuers.cert-manager.io',
    'clusterissuers.cert-manager.io',
    'certificaterequests.cert-manager.io',
    'orders.acme.cert-manager.io',
    'challenges.acme.cert-manager.io',
  ];
  const output = await run('kubectl', ['get', 'crds']).catch(() => '');
  return getNonEmptyLines(output).some((line) => certManagerCRDs.some((crd) => line.includes(crd)));
}

/** The lines of `output` that are not empty. */
export function getNonEmptyLines(output: string): string[] {
  return output.split('\n').filter((line) => line !== '');
}

/**
 * Uncomments `target` in `filename`: every line of it loses `prefix` (e.g. `#` in a kustomization).
 * An error when `target` is not in the file.
 */
export function uncommentCode(filename: string, target: string, prefix: string): void {
  const content = readFileSync(filename, 'utf8');
  const at = content.indexOf(target);
  if (at < 0) throw new Error(`unable to find the code ${JSON.stringify(target)} to be uncommented in ${filename}`);
  const uncommented = target
    .split('\n')
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
    .join('\n');
  writeFileSync(filename, content.slice(0, at) + uncommented + content.slice(at + target.length));
}

function warnError(err: unknown): void {
  process.stderr.write(`warning: ${err instanceof Error ? err.message : String(err)}\n`);
}
