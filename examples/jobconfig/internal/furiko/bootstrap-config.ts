/**
 * Furiko's bootstrap configuration (config.furiko.io/v1alpha1 ExecutionControllerConfig), the file the
 * execution-controller reads at start from `--config`: where the dynamic ConfigMap (and Secret) are, leader
 * election, each controller's concurrency and HTTP serving (http-serving.ts maps it onto the manager's
 * probe and metrics servers). `defaultResync` (Furiko's 10m when unset) is the informers' resync period
 * (the manager's `cache.syncPeriodMs`, controller-runtime's SyncPeriod).
 * A bad file is a ConfigError naming the file, the line and the field. `--config` is one of the manager's
 * flags (`addManagerFlags`): `parseManagerFlags` reads it with the others and `managerUsage` lists it.
 */
import { readFileSync } from 'node:fs';
import { addManagerFlags, type LeaderElectionOptions, type ManagerOptions } from 'kubeforge/runtime';
import { FURIKO_CONTROLLERS, type ControllerConcurrency, type FurikoControllerName } from './controller-concurrency.js';
import { DEFAULT_DYNAMIC_CONFIG } from './dynamic-config.js';
import { ConfigError, YamlFields } from './yaml-fields.js';

export interface BootstrapConfig {
  /** The dynamic ConfigMap (`dynamicConfigs.configMap`); default furiko-system/execution-dynamic-config. */
  dynamicConfigMap: { namespace: string; name: string };
  /** The dynamic Secret (`dynamicConfigs.secret`), only when the file names one; its fields win over the ConfigMap's. */
  dynamicSecret?: { namespace: string; name: string };
  /** `leaderElection`, when `enabled: true`. */
  leaderElection?: LeaderElectionOptions;
  /** `controllerConcurrency`: workers of each controller the file sets (the rest: 4 × CPUs, Furiko's default). */
  controllerConcurrency: Partial<Record<FurikoControllerName, ControllerConcurrency>>;
  /** `http`, when the file has it. */
  http?: HttpSpec;
  /** `defaultResync` in ms when set (Furiko: 10m when unset): the informers' resync period. */
  defaultResyncMs?: number;
}

/** Furiko's HTTPSpec: one address for metrics and health probes, each with its paths. */
export interface HttpSpec {
  /** Furiko's default ":8080". */
  bindAddress: string;
  metrics: { enabled: boolean; path: string };
  health: { enabled: boolean; readinessProbePath: string; livenessProbePath: string };
}

export const defaultBootstrapConfig: Readonly<BootstrapConfig> = Object.freeze({ dynamicConfigMap: { ...DEFAULT_DYNAMIC_CONFIG }, controllerConcurrency: {} });

/** Furiko's leader election defaults (LeaderElectionSpec): lease in furiko-system, 30 s / 15 s / 5 s. */
export const DEFAULT_LEASE = Object.freeze({ name: 'execution-controller', namespace: 'furiko-system', durationMs: 30_000, renewDeadlineMs: 15_000, retryPeriodMs: 5_000 });

const API_VERSION = 'config.furiko.io/v1alpha1';
const KIND = 'ExecutionControllerConfig';

/** Parses the text of a bootstrap file; `file` names it in messages. */
export function parseBootstrapConfig(text: string, file: string): BootstrapConfig {
  const root = YamlFields.parse(text, (line) => `${file}:${line}`);
  root.only(['apiVersion', 'kind', 'defaultResync', 'leaderElection', 'dynamicConfigs', 'http', 'controllerConcurrency']);
  const apiVersion = root.string('apiVersion');
  if (apiVersion !== undefined && apiVersion !== API_VERSION) throw root.error('apiVersion', `expected ${API_VERSION}, got ${JSON.stringify(apiVersion)}`);
  const kind = root.string('kind');
  if (kind !== undefined && kind !== KIND) throw root.error('kind', `expected ${KIND}, got ${JSON.stringify(kind)}`);
  const defaultResyncMs = root.duration('defaultResync');

  const dynamicConfigs = root.object('dynamicConfigs');
  dynamicConfigs.only(['configMap', 'secret']);
  const configMap = objectReference(dynamicConfigs.object('configMap'));
  const secretFields = dynamicConfigs.object('secret');
  const secret = objectReference(secretFields);

  const election = root.object('leaderElection');
  election.only(['enabled', 'leaseName', 'leaseNamespace', 'leaseDuration', 'renewDeadline', 'retryPeriod']);
  const leaderElection: LeaderElectionOptions = {
    id: election.string('leaseName') || DEFAULT_LEASE.name,
    namespace: election.string('leaseNamespace') || DEFAULT_LEASE.namespace,
    leaseDurationMs: election.duration('leaseDuration') || DEFAULT_LEASE.durationMs,
    renewDeadlineMs: election.duration('renewDeadline') || DEFAULT_LEASE.renewDeadlineMs,
    retryPeriodMs: election.duration('retryPeriod') || DEFAULT_LEASE.retryPeriodMs,
  };
  if (leaderElection.renewDeadlineMs! > leaderElection.leaseDurationMs!) {
    throw election.error('renewDeadline', 'must be less than or equal to leaseDuration');
  }

  const http = root.object('http');
  http.only(['bindAddress', 'metrics', 'health']);
  const metrics = http.object('metrics');
  metrics.only(['enabled', 'metricsPath']);
  const health = http.object('health');
  health.only(['enabled', 'readinessProbePath', 'livenessProbePath']);
  // Furiko's defaults for each field left out or empty.
  const httpSpec: HttpSpec = {
    bindAddress: http.string('bindAddress') || ':8080',
    metrics: { enabled: metrics.bool('enabled') ?? true, path: metrics.string('metricsPath') || '/metrics' },
    health: {
      enabled: health.bool('enabled') ?? true,
      readinessProbePath: health.string('readinessProbePath') || '/readyz',
      livenessProbePath: health.string('livenessProbePath') || '/healthz',
    },
  };

  // The manager's probe and metrics servers answer on fixed paths only.
  if (httpSpec.metrics.path !== '/metrics') throw metrics.error('metricsPath', `the manager serves metrics at /metrics only, got ${JSON.stringify(httpSpec.metrics.path)}`);
  if (httpSpec.health.readinessProbePath !== '/readyz') throw health.error('readinessProbePath', `the manager serves readiness at /readyz only, got ${JSON.stringify(httpSpec.health.readinessProbePath)}`);
  if (httpSpec.health.livenessProbePath !== '/healthz') throw health.error('livenessProbePath', `the manager serves liveness at /healthz only, got ${JSON.stringify(httpSpec.health.livenessProbePath)}`);

  const concurrency = root.object('controllerConcurrency');
  concurrency.only(FURIKO_CONTROLLERS);
  const controllerConcurrency: Partial<Record<FurikoControllerName, ControllerConcurrency>> = {};
  for (const controller of FURIKO_CONTROLLERS) {
    const spec = concurrency.object(controller);
    spec.only(['workers', 'factorOfCPUs']);
    const workers = spec.integer('workers', 0);
    const factorOfCPUs = spec.integer('factorOfCPUs', 0);
    if (workers || factorOfCPUs) controllerConcurrency[controller] = { ...(workers ? { workers } : {}), ...(factorOfCPUs ? { factorOfCPUs } : {}) };
  }

  return {
    dynamicConfigMap: { namespace: configMap.namespace ?? DEFAULT_DYNAMIC_CONFIG.namespace, name: configMap.name ?? DEFAULT_DYNAMIC_CONFIG.name },
    ...(secretFields.present ? { dynamicSecret: { namespace: secret.namespace ?? DEFAULT_DYNAMIC_CONFIG.namespace, name: secret.name ?? DEFAULT_DYNAMIC_CONFIG.name } } : {}),
    ...(election.bool('enabled') ? { leaderElection } : {}),
    controllerConcurrency,
    ...(http.present ? { http: httpSpec } : {}),
    ...(defaultResyncMs !== undefined ? { defaultResyncMs } : {}),
  };
}

function objectReference(fields: YamlFields): { namespace?: string; name?: string } {
  fields.only(['namespace', 'name']);
  const namespace = fields.string('namespace');
  const name = fields.string('name');
  return { ...(namespace ? { namespace } : {}), ...(name ? { name } : {}) };
}

/** Reads the bootstrap file at `path` (the `--config` flag). */
export function readBootstrapConfig(path: string): BootstrapConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`--config: cannot read ${path}: ${(err as Error).message}`);
  }
  return parseBootstrapConfig(text, path);
}

/** The manager's options with the bootstrap file's leader election (it wins over `--leader-elect`'s lease). */
export function withBootstrapConfig(options: ManagerOptions, bootstrap: BootstrapConfig): ManagerOptions {
  // defaultResync: the informers' resync (controller-runtime's SyncPeriod), Furiko's 10m when the file sets none.
  const resynced: ManagerOptions = { ...options, cache: { ...options.cache, syncPeriodMs: bootstrap.defaultResyncMs ?? DEFAULT_RESYNC_MS } };
  return bootstrap.leaderElection ? { ...resynced, leaderElection: { ...bootstrap.leaderElection } } : resynced;
}

/** Furiko's defaultResync when the bootstrap file sets none: 10 minutes. */
export const DEFAULT_RESYNC_MS = 600_000;

/** The `--config` line of the command's usage text. */
export const CONFIG_FLAG_USAGE = `  --config <file>                     Furiko's bootstrap configuration (ExecutionControllerConfig): the dynamic
                                      ConfigMap (default furiko-system/execution-dynamic-config) and Secret, leader
                                      election, controllerConcurrency, http (probes on http.bindAddress)`;

/**
 * `--config <file>` among the manager's flags: cmd/main.ts's (and cmd/run-local.ts's) `parseManagerFlags`
 * reads it, refusing one without a file, and this handle holds what it read.
 */
export const configFlag = addManagerFlags({
  options: { config: { type: 'string' } },
  usage: CONFIG_FLAG_USAGE,
  check({ config }) {
    if (config === '') throw new ConfigError('--config: expected the path of a bootstrap configuration file (ExecutionControllerConfig)');
  },
});
