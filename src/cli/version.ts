/**
 * `kubeforge version` and `kubeforge --version`: kubeforge's own version and the levels it targets — the
 * Kubernetes version of its local cluster and types, and the controller-runtime and controller-tools
 * releases whose behaviour it mirrors — laid out like kubebuilder's `version`.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { PROJECT_LAYOUT } from '../scaffold/project-file.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** What kubeforge targets; the local cluster's API server reports KUBERNETES_VERSION (checked by a test). */
export const KUBERNETES_VERSION = 'v1.32.4';
export const CONTROLLER_RUNTIME_LEVEL = 'v0.22';
export const CONTROLLER_TOOLS_LEVEL = 'v0.21';
export const KUBEBUILDER_LAYOUT = 'go/v4';

export function kubeforgeVersion(): string {
  return packageJson.version;
}

/** The lines `kubeforge version` prints. */
export function versionLines(): string[] {
  const rows: Array<[string, string]> = [
    ['kubeforge', kubeforgeVersion()],
    ['Kubernetes', `${KUBERNETES_VERSION.replace(/^v(\d+\.\d+)\..*$/, '$1')} (local cluster and kubernetes-types; API server ${KUBERNETES_VERSION})`],
    ['controller-runtime', `${CONTROLLER_RUNTIME_LEVEL} (the concepts of kubeforge/runtime)`],
    ['controller-tools', `${CONTROLLER_TOOLS_LEVEL} (controller-gen's markers and output, as kubeforge manifests and generate)`],
    ['kubebuilder layout', `${KUBEBUILDER_LAYOUT} (PROJECT layout ${PROJECT_LAYOUT})`],
    ['Node.js', `${process.version} ${process.platform}/${process.arch}`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return rows.map(([name, value]) => `${`${name}:`.padEnd(width)}${value}`);
}

export function register(program: Command): void {
  program
    .command('version')
    .description('print the kubeforge version and the Kubernetes, controller-runtime and controller-tools levels it targets')
    .action(() => {
      process.stdout.write(`${versionLines().join('\n')}\n`);
    });
}
