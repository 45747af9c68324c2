/**
 * The bootstrap file's controllerConcurrency and http applied as cmd/main.ts applies them (furikoBootstrap,
 * then the scaffold's setupControllers), on a manager that never connects.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Kubeconfig, Manager, parseManagerFlags, type ManagerOptions } from 'kubeforge/runtime';
import { setupControllers } from '../controller/index.js';
import { workersFor } from './controller-concurrency.js';
import { furikoBootstrap } from './startup.js';

let folder: string;
beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'furiko-applied-'))));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** cmd/main.ts's start-up with `config` as the --config file and `flags` as the manager's flags. */
function start(config: string, flags: string[] = []): { options: ManagerOptions; startup: ReturnType<typeof furikoBootstrap> } {
  const file = join(folder, 'config.yaml');
  writeFileSync(file, config);
  const parsed = parseManagerFlags(['--config', file, ...flags], { leaderElectionId: 'jobconfig-leader.furiko.io' });
  if (parsed === 'help') throw new Error('unexpected --help');
  const startup = furikoBootstrap(parsed);
  startup.configure(parsed.options);
  return { options: parsed.options, startup };
}

function offlineManager(options: ManagerOptions): Manager {
  const kubeConfig = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  return new Manager({ ...options, kubeConfig, logger: pino({ level: 'silent' }) });
}

const workersOf = (mgr: Manager) => Object.fromEntries(mgr.controllerList().map((c) => [c.name, c.options.maxConcurrentReconciles]));

describe('controllerConcurrency sets the workers of the controllers', () => {
  test("workers wins over factorOfCPUs, factorOfCPUs multiplies the CPUs, left out is Furiko's 4 x CPUs", async () => {
    const cpus = availableParallelism();
    const { options, startup } = start('controllerConcurrency:\n  job:\n    workers: 3\n    factorOfCPUs: 9\n  jobQueue:\n    factorOfCPUs: 2\n');
    const mgr = offlineManager(options);
    await setupControllers(mgr);
    const applied = startup.configureControllers(mgr);
    const expected = { job: 3, jobconfig: 4 * cpus, cron: 4 * cpus, 'jobqueue-jobconfig': 2 * cpus, 'jobqueue-independent': 2 * cpus };
    expect(applied).toEqual(expected);
    expect(workersOf(mgr)).toEqual(expected);
    mgr.close();
  });

  test('workersFor follows GetConcurrencyOrDefaultCPUFactor', () => {
    expect(workersFor(undefined, 2)).toBe(8);
    expect(workersFor({ workers: 5 }, 2)).toBe(5);
    expect(workersFor({ factorOfCPUs: 3 }, 2)).toBe(6);
  });
});

describe('http maps onto the manager probe and metrics servers', () => {
  test('http.bindAddress becomes the probe address; metrics stay on --metrics-bind-address', () => {
    const { options } = start('http:\n  bindAddress: ":18080"\n', ['--metrics-bind-address=:18443']);
    expect(options.probeBindAddress).toBe(':18080');
    expect(options.metrics?.bindAddress).toBe(':18443');
  });

  test('health and metrics disabled turn the probe and metrics servers off', () => {
    const { options } = start('http:\n  metrics:\n    enabled: false\n  health:\n    enabled: false\n');
    expect(options.probeBindAddress).toBe('0');
    expect(options.metrics).toBeUndefined();
  });

  test('without http the flags decide as before', () => {
    const { options } = start('leaderElection:\n  enabled: false\n', ['--health-probe-bind-address=:18081']);
    expect(options.probeBindAddress).toBe(':18081');
  });

  test('a command line that contradicts http is refused, naming the file field and the flag', () => {
    expect(() => start('http:\n  bindAddress: ":8080"\n', ['--health-probe-bind-address', ':8081'])).toThrow(
      /config\.yaml: http\.bindAddress ":8080" conflicts with --health-probe-bind-address ":8081": set one of them$/,
    );
    expect(() => start('http:\n  metrics:\n    enabled: false\n', ['--metrics-bind-address=:8443'])).toThrow(/http\.metrics\.enabled false conflicts with --metrics-bind-address ":8443"/);
  });
});
