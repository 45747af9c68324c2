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

/** The value of `--<flag>` on `argv` (either spelling), undefined when absent. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${flag}`) value = argv[i + 1];
    else if (argv[i]!.startsWith(`--${flag}=`)) value = argv[i]!.slice(flag.length + 3);
  }
  return value;
}

/** Applies `http` (read from `file`) to the manager's options in place; `argv` is the manager's command line. */
export function applyHttpSpec(options: ManagerOptions, http: HttpSpec | undefined, argv: readonly string[], file: string): void {
  if (!http) return;
  const probeFlag = flagValue(argv, 'health-probe-bind-address');
  const probeAddress = http.health.enabled ? http.bindAddress : '0';
  if (probeFlag !== undefined && probeFlag !== probeAddress) {
    const field = http.health.enabled ? `http.bindAddress ${JSON.stringify(http.bindAddress)}` : 'http.health.enabled false';
    throw new ConfigError(`${file}: ${field} conflicts with --health-probe-bind-address ${JSON.stringify(probeFlag)}: set one of them`);
  }
  options.probeBindAddress = probeAddress;
  delete options.probePort;
  if (!http.metrics.enabled) {
    const metricsFlag = flagValue(argv, 'metrics-bind-address');
    if (metricsFlag !== undefined && metricsFlag !== '0') {
      throw new ConfigError(`${file}: http.metrics.enabled false conflicts with --metrics-bind-address ${JSON.stringify(metricsFlag)}: set one of them`);
    }
    delete options.metrics;
  }
}
