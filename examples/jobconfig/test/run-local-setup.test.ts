/**
 * `make run-local` starts Furiko as cmd/main.ts does: `--config` is one of the manager's flags, so runLocal's
 * parseManagerFlags reads it, and the setup cmd/run-local.ts gives kubeforge/testing's runLocal watches the
 * bootstrap file's dynamic ConfigMap and Secret and applies its controllerConcurrency. runLocal is replaced
 * by one that records its options; the test parses the flags as runLocal does before it calls the setup,
 * which runs on a manager that never connects.
 */
import { jest } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Kubeconfig, Manager, parseManagerFlags, type Runnable } from 'kubeforge/runtime';
import type { RunLocalOptions } from 'kubeforge/testing';

const recorded: RunLocalOptions[] = [];
jest.unstable_mockModule('kubeforge/testing', () => ({ runLocal: (options: RunLocalOptions) => void recorded.push(options) }));
const { DynamicConfigWatcher } = await import('../internal/furiko/dynamic-config-watcher.js');

let folder: string;
const argv = process.argv;
beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'furiko-run-local-'))));
afterAll(() => {
  process.argv = argv;
  rmSync(folder, { recursive: true, force: true });
});

function offlineManager(): Manager {
  const kubeConfig = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  return new Manager({ kubeConfig, logger: pino({ level: 'silent' }) });
}

test('run-local watches the dynamic ConfigMap and Secret of --config and applies controllerConcurrency, as main.ts', async () => {
  const file = join(folder, 'config.yaml');
  writeFileSync(file, 'dynamicConfigs:\n  configMap:\n    namespace: default\n    name: dyn\n  secret:\n    name: dyn-secret\ncontrollerConcurrency:\n  job:\n    workers: 2\n');
  process.argv = ['node', 'dist/cmd/run-local.js', '--fresh', '--config', file, '--health-probe-bind-address=:0'];
  await import('../cmd/run-local.js');
  // the command line is left alone: nothing takes --config out of it any more
  expect(process.argv).toEqual(['node', 'dist/cmd/run-local.js', '--fresh', '--config', file, '--health-probe-bind-address=:0']);
  expect(recorded).toHaveLength(1);
  // runLocal parses the manager's flags (without its own --fresh) before it calls the setup
  expect(parseManagerFlags(['--config', file, '--health-probe-bind-address=:0'], { leaderElectionId: recorded[0]!.leaderElectionId })).not.toBe('help');

  const mgr = offlineManager();
  const added: Runnable[] = [];
  jest.spyOn(mgr, 'add').mockImplementation((runnable) => void added.push(runnable));
  process.env.ENABLE_WEBHOOKS = 'false';
  await recorded[0]!.setup(mgr);
  delete process.env.ENABLE_WEBHOOKS;

  const watchers = added.filter((runnable) => runnable instanceof DynamicConfigWatcher);
  expect(watchers.map((watcher) => ({ configMap: watcher.configMap, secret: watcher.secret }))).toEqual([
    { configMap: { namespace: 'default', name: 'dyn' }, secret: { namespace: 'furiko-system', name: 'dyn-secret' } },
  ]);
  expect(mgr.controllerList().find((controller) => controller.name === 'job')?.options.maxConcurrentReconciles).toBe(2);
  mgr.close();
});
