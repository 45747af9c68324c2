/**
 * What cmd/main.ts (and cmd/run-local.ts) add to the scaffold's start-up for Furiko: `--config <file>` (the
 * bootstrap configuration) taken out of the command line before the manager's flags are parsed, its leader
 * election and `http` applied to the manager's options, its `controllerConcurrency` to the controllers
 * setupControllers registered, and the dynamic ConfigMap (and Secret) it names watched, so the shared
 * configuration (sharedFurikoConfig) follows them without a restart.
 */
import type { Manager, ManagerOptions } from 'kubeforge/runtime';
import { CONFIG_FLAG_USAGE, defaultBootstrapConfig, readBootstrapConfig, takeConfigFlag, withBootstrapConfig, type BootstrapConfig } from './bootstrap-config.js';
import { sharedFurikoConfig, type FurikoConfig } from './config.js';
import { applyControllerConcurrency } from './controller-concurrency.js';
import { DynamicConfigWatcher } from './dynamic-config-watcher.js';
import { applyHttpSpec } from './http-serving.js';

export interface FurikoStartup {
  readonly bootstrap: BootstrapConfig;
  /** The `--config` line for `--help`. */
  readonly usage: string;
  /** Applies the bootstrap file's leader election and `http` to the manager's options (in place). */
  configure(options: ManagerOptions): void;
  /** Sets the registered controllers' workers from `controllerConcurrency` (Furiko's default 4 × CPUs); returns them by controller. */
  configureControllers(mgr: Manager): Record<string, number>;
  /** Adds the dynamic ConfigMap's (and Secret's) watcher to the manager (it starts with it, on every replica). */
  watchDynamicConfig(mgr: Manager): DynamicConfigWatcher;
}

/**
 * Reads `--config` from `argv` (process.argv: node, script, flags…) and removes it there, so the manager's
 * flag parser sees only its own flags. Without `--config`, Furiko's defaults: the ConfigMap
 * furiko-system/execution-dynamic-config, no Secret, no leader election from the file, 4 × CPUs workers.
 */
export function furikoBootstrap(argv: string[], config: FurikoConfig = sharedFurikoConfig): FurikoStartup {
  const { configPath, rest } = takeConfigFlag(argv.slice(2));
  argv.splice(2, argv.length - 2, ...rest);
  const bootstrap = configPath !== undefined ? readBootstrapConfig(configPath) : defaultBootstrapConfig;
  return {
    bootstrap,
    usage: CONFIG_FLAG_USAGE,
    configure(options) {
      Object.assign(options, withBootstrapConfig(options, bootstrap));
      applyHttpSpec(options, bootstrap.http, rest, configPath ?? '--config');
    },
    configureControllers(mgr) {
      return applyControllerConcurrency(mgr, bootstrap.controllerConcurrency);
    },
    watchDynamicConfig(mgr) {
      const watcher = new DynamicConfigWatcher(config, bootstrap.dynamicConfigMap, bootstrap.dynamicSecret);
      mgr.add(watcher);
      return watcher;
    },
  };
}
