/*
Copyright 2026 The eventjob Authors.

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
 * The manager's command-line flags, kubebuilder's names: bind addresses, leader election, kubeconfig, log
 * options and the webhook certificate folder. Shared by cmd/main.ts and cmd/run-local.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { ManagerOptions } from 'kubeforge/runtime';

export const usage = `Usage: node dist/cmd/main.js [flags]
  --metrics-bind-address <addr>       address the metric endpoint binds to, e.g. :8443; "0" disables it (default "0")
  --health-probe-bind-address <addr>  address the /healthz and /readyz probes bind to (default ":8081")
  --leader-elect                      enable leader election, so only one manager is active at a time
  --kubeconfig <path>                 kubeconfig to use (default: $KUBECONFIG, ~/.kube/config, or in-cluster)
  --zap-devel                         development logging: debug level, human-friendly output
  --zap-log-level <level>             log level: debug, info, warn, error (default info)
  --webhook-cert-path <dir>           folder with the webhook server's tls.crt, tls.key and ca.crt
                                      (default: a self-signed certificate made at start, for local runs)
  --help                              print this text`;

/** The port of a Go-style bind address (":8081", "0.0.0.0:8081"); undefined for "0" (disabled). */
export function portOf(flag: string, address: string): number | undefined {
  if (address === '0') return undefined;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${flag}: expected an address such as :8081, got "${address}"`);
  return port;
}

/** The namespace this pod runs in (for the leader-election Lease); "default" outside a cluster. */
function podNamespace(): string {
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  try {
    return readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim();
  } catch {
    return 'default';
  }
}

/** What the command line asks for: the manager's options and the settings outside it. */
export interface ManagerFlags {
  options: ManagerOptions;
  webhookCertPath?: string;
}

export function parseFlags(argv: string[]): ManagerFlags | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      'metrics-bind-address': { type: 'string', default: '0' },
      'health-probe-bind-address': { type: 'string', default: ':8081' },
      'leader-elect': { type: 'boolean', default: false },
      kubeconfig: { type: 'string' },
      'zap-devel': { type: 'boolean', default: false },
      'zap-log-level': { type: 'string' },
      'webhook-cert-path': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const level = values['zap-log-level'] ?? (values['zap-devel'] ? 'debug' : 'info');
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal'].includes(level)) throw new Error(`--zap-log-level: unknown level "${level}"`);
  const probePort = portOf('--health-probe-bind-address', values['health-probe-bind-address']);
  // The kubeforge manager serves /metrics next to the probes; a separate metrics address is only checked.
  portOf('--metrics-bind-address', values['metrics-bind-address']);
  const webhookCertPath = values['webhook-cert-path'];
  const options: ManagerOptions = {
    logger: pino({ level }),
    // Served only when webhooks are registered; kubebuilder's port 9443 (config/default/manager_webhook_patch.yaml).
    webhook: { port: 9443, ...(webhookCertPath ? { certificates: readWebhookCertificates(webhookCertPath) } : {}) },
    ...(values.kubeconfig ? { kubeConfig: values.kubeconfig } : {}),
    ...(probePort !== undefined ? { probePort } : {}),
    ...(values['leader-elect'] ? { leaderElection: { id: 'eventjob-leader.kitagry.github.io', namespace: podNamespace() } } : {}),
  };
  return { options, ...(webhookCertPath ? { webhookCertPath } : {}) };
}

/** tls.crt, tls.key and ca.crt of a mounted cert-manager secret (ca.crt falls back to tls.crt). */
function readWebhookCertificates(dir: string): { caPem: string; certPem: string; keyPem: string } {
  const read = (name: string): string => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch (err) {
      throw new Error(`--webhook-cert-path: cannot read ${join(dir, name)}: ${(err as Error).message}`);
    }
  };
  const certPem = read('tls.crt');
  return { certPem, keyPem: read('tls.key'), caPem: existsSync(join(dir, 'ca.crt')) ? read('ca.crt') : certPem };
}

