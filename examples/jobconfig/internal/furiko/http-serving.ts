/**
 * Furiko's `http` (bootstrap file) on kubeforge's manager. Furiko serves /metrics, /readyz and /healthz on
 * one address (`http.bindAddress`, default :8080); the manager has a probe server (/readyz, /healthz) and
 * a separate metrics server. So `http.bindAddress` becomes the probe server's address, `health.enabled:
 * false` turns the probes off and `metrics.enabled: false` the metrics server; metrics, when on, stay on
 * `--metrics-bind-address` (they cannot share the probe server's port). A command line that says otherwise
 * (`--health-probe-bind-address`, `--metrics-bind-address` given with another value) is refused, naming
 * both: the file and the flag would each be half applied.
 */
import type { ManagerOptions } from 'kubeforge/runtime';
import type { HttpSpec } from './bootstrap-config.js';
import { ConfigError } from './yaml-fields.js';

/**
 * Applies `http` (read from `file`) to the manager's options in place; `given` names the flags the command
 * line gave (`parseManagerFlags`'s), whose values the options hold.
 */
export function applyHttpSpec(options: ManagerOptions, http: HttpSpec | undefined, given: ReadonlySet<string>, file: string): void {
  if (!http) return;
  const probeFlag = given.has('health-probe-bind-address') ? options.probeBindAddress : undefined;
  const probeAddress = http.health.enabled ? http.bindAddress : '0';
  if (probeFlag !== undefined && probeFlag !== probeAddress) {
    const field = http.health.enabled ? `http.bindAddress ${JSON.stringify(http.bindAddress)}` : 'http.health.enabled false';
    throw new ConfigError(`${file}: ${field} conflicts with --health-probe-bind-address ${JSON.stringify(probeFlag)}: set one of them`);
  }
  options.probeBindAddress = probeAddress;
  delete options.probePort;
  if (!http.metrics.enabled) {
    const metricsFlag = given.has('metrics-bind-address') ? options.metrics?.bindAddress : undefined;
    if (metricsFlag !== undefined && metricsFlag !== '0') {
      throw new ConfigError(`${file}: http.metrics.enabled false conflicts with --metrics-bind-address ${JSON.stringify(metricsFlag)}: set one of them`);
    }
    delete options.metrics;
  }
}
