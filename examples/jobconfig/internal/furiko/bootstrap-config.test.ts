/** Furiko's bootstrap configuration file (ExecutionControllerConfig, `--config`): what applies, defaults, and errors naming file, line and field. */
import { ConfigError } from './yaml-fields.js';
import { parseManagerFlags } from 'kubeforge/runtime';
import { configFlag, defaultBootstrapConfig, parseBootstrapConfig, withBootstrapConfig } from './bootstrap-config.js';

/** Furiko's own config/execution/controller/config.yaml, comments left out. */
const FURIKO_SAMPLE = `apiVersion: config.furiko.io/v1alpha1
kind: ExecutionControllerConfig
defaultResync: 10m
leaderElection:
  enabled: true
  leaseName: execution-controller
  leaseNamespace: furiko-system
  leaseDuration: 30s
  renewDeadline: 15s
  retryPeriod: 5s
dynamicConfigs:
  configMap:
    namespace: furiko-system
    name: execution-dynamic-config
  secret:
    namespace: furiko-system
    name: execution-dynamic-config
http:
  bindAddress: ':8080'
  metrics:
    enabled: true
  health:
    enabled: true
    readinessProbePath: '/readyz'
    livenessProbePath: '/healthz'
controllerConcurrency:
  cron:
    factorOfCPUs: 4
  job:
    factorOfCPUs: 4
  jobConfig:
    factorOfCPUs: 4
  jobQueue:
    factorOfCPUs: 4
`;

describe('parseBootstrapConfig', () => {
  test("Furiko's sample file: its dynamic ConfigMap and Secret, leader election, http, concurrency and resync", () => {
    expect(parseBootstrapConfig(FURIKO_SAMPLE, 'config.yaml')).toEqual({
      dynamicConfigMap: { namespace: 'furiko-system', name: 'execution-dynamic-config' },
      dynamicSecret: { namespace: 'furiko-system', name: 'execution-dynamic-config' },
      leaderElection: { id: 'execution-controller', namespace: 'furiko-system', leaseDurationMs: 30_000, renewDeadlineMs: 15_000, retryPeriodMs: 5_000 },
      controllerConcurrency: { cron: { factorOfCPUs: 4 }, job: { factorOfCPUs: 4 }, jobConfig: { factorOfCPUs: 4 }, jobQueue: { factorOfCPUs: 4 } },
      http: { bindAddress: ':8080', metrics: { enabled: true, path: '/metrics' }, health: { enabled: true, readinessProbePath: '/readyz', livenessProbePath: '/healthz' } },
      defaultResyncMs: 600_000,
    });
  });

  test('the dynamic Secret is watched only when the file names one; a name alone keeps the default namespace', () => {
    expect(parseBootstrapConfig('dynamicConfigs:\n  configMap:\n    name: cm\n', 'c.yaml').dynamicSecret).toBeUndefined();
    expect(parseBootstrapConfig('dynamicConfigs:\n  secret:\n    name: s\n', 'c.yaml').dynamicSecret).toEqual({ namespace: 'furiko-system', name: 's' });
  });

  test("an empty file is Furiko's defaults: furiko-system/execution-dynamic-config, no leader election", () => {
    expect(parseBootstrapConfig('', 'config.yaml')).toEqual(defaultBootstrapConfig);
    expect(parseBootstrapConfig('leaderElection:\n  enabled: false\n', 'config.yaml')).toEqual(defaultBootstrapConfig);
  });

  test('leader election left to defaults, a ConfigMap name alone keeps the default namespace, Go durations', () => {
    const parsed = parseBootstrapConfig('leaderElection:\n  enabled: true\n  leaseDuration: 1m30s\ndynamicConfigs:\n  configMap:\n    name: mine\n', 'c.yaml');
    expect(parsed).toEqual({
      dynamicConfigMap: { namespace: 'furiko-system', name: 'mine' },
      leaderElection: { id: 'execution-controller', namespace: 'furiko-system', leaseDurationMs: 90_000, renewDeadlineMs: 15_000, retryPeriodMs: 5_000 },
      controllerConcurrency: {},
    });
  });

  test.each([
    ['leaderElection:\n  enabled: true\n  leaseDuration: soon\n', 'c.yaml:3: leaderElection.leaseDuration: expected a duration such as 30s or 1m30s, got "soon"'],
    ['leaderElection:\n  enabled: yes please\n', 'c.yaml:2: leaderElection.enabled: expected true or false, got string "yes please"'],
    ['dynamicConfigs:\n  configmap:\n    name: x\n', 'c.yaml:2: dynamicConfigs.configmap: unknown field (known: configMap, secret)'],
    ['kind: JobExecutionConfig\n', 'c.yaml:1: kind: expected ExecutionControllerConfig, got "JobExecutionConfig"'],
    ['leaderElection:\n  enabled: true\n  leaseDuration: 10s\n  renewDeadline: 15s\n', 'c.yaml:4: leaderElection.renewDeadline: must be less than or equal to leaseDuration'],
    ['controllerConcurrency:\n  job:\n    workers: -1\n', 'c.yaml:3: controllerConcurrency.job.workers: must be at least 0, got -1'],
    ['dynamicConfigs: [a]\n', 'c.yaml:1: dynamicConfigs: expected a map of fields, got a list'],
    ['http:\n  metrics:\n    metricsPath: /prom\n', 'c.yaml:3: http.metrics.metricsPath: the manager serves metrics at /metrics only, got "/prom"'],
    ['http:\n  health:\n    livenessProbePath: /live\n', 'c.yaml:3: http.health.livenessProbePath: the manager serves liveness at /healthz only, got "/live"'],
  ])('%j: %s', (text, message) => {
    expect(() => parseBootstrapConfig(text, 'c.yaml')).toThrow(ConfigError);
    expect(() => parseBootstrapConfig(text, 'c.yaml')).toThrow(message);
  });
});

describe('the --config flag', () => {
  const parse = (argv: string[]) => parseManagerFlags(argv, { leaderElectionId: 'jobconfig-leader.furiko.io' });

  test("is one of the manager's flags in both spellings: parseManagerFlags returns it and configFlag holds it (process.argv is not read)", () => {
    const flags = parse(['--leader-elect', '--config', '/etc/furiko/config.yaml', '--zap-devel']);
    if (flags === 'help') throw new Error('unexpected --help');
    expect(flags.values.config).toBe('/etc/furiko/config.yaml');
    expect(flags.options.leaderElection?.id).toBe('jobconfig-leader.furiko.io');
    expect(configFlag.values).toEqual({ config: '/etc/furiko/config.yaml' });
    expect([...configFlag.given].sort()).toEqual(['config', 'leader-elect', 'zap-devel']);
    expect(parse(['--config=c.yaml'])).toMatchObject({ values: { config: 'c.yaml' } });
    expect(configFlag.values).toEqual({ config: 'c.yaml' });
    expect(parse(['--zap-devel'])).toMatchObject({ values: { config: undefined } });
    expect(configFlag.values).toEqual({ config: undefined });
  });

  test('without a file is an error naming the flag', () => {
    expect(() => parse(['--config'])).toThrow('--config: expected the path of a bootstrap configuration file (ExecutionControllerConfig)');
    expect(() => parse(['--config', '--zap-devel'])).toThrow('--config: expected the path');
    expect(() => parse(['--config='])).toThrow('--config: expected the path');
  });

  test("the file's leader election replaces --leader-elect's lease; defaultResync (10m unset) becomes the cache's resync period", () => {
    const options = { leaderElection: { id: 'jobconfig-leader.furiko.io', namespace: 'default' } };
    // Without a file: Furiko's defaultResync (10m) as the cache's resync period, nothing else.
    expect(withBootstrapConfig(options, defaultBootstrapConfig)).toEqual({ ...options, cache: { syncPeriodMs: 600_000 } });
    expect(withBootstrapConfig(options, parseBootstrapConfig(FURIKO_SAMPLE, 'c.yaml')).cache).toEqual({ syncPeriodMs: 600_000 });
    expect(withBootstrapConfig(options, parseBootstrapConfig('defaultResync: 90s\n', 'c.yaml')).cache).toEqual({ syncPeriodMs: 90_000 });
    expect(withBootstrapConfig(options, parseBootstrapConfig(FURIKO_SAMPLE, 'c.yaml')).leaderElection).toMatchObject({ id: 'execution-controller', namespace: 'furiko-system' });
  });
});
