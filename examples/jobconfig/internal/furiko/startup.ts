/**
 * What cmd/main.ts (and cmd/run-local.ts) add to the scaffold's start-up for Furiko: the bootstrap
 * configuration of `--config <file>` (one of the manager's flags, see bootstrap-config.ts), its leader
 * election and `http` applied to the manager's options, its `controllerConcurrency` to the controllers
 * setupControllers registered, and the dynamic ConfigMap (and Secret) it names watched, so the shared
 * configuration (sharedFurikoConfig) follows them without a restart.
 */
import type { Manager, ManagerOptions } from 'kubeforge/runtime';
import { configFlag, defaultBootstrapConfig, readBootstrapConfig, withBootstrapConfig, type BootstrapConfig } from './bootstrap-config.js';
import { sharedFurikoConfig, type FurikoConfig } from './config.js';
import { applyControllerConcurrency } from './controller-concurrency.js';
import { DynamicConfigWatcher } from './dynamic-config-watcher.js';
import { applyHttpSpec } from './http-serving.js';

export interface FurikoStartup {
  readonly bootstrap: BootstrapConfig;
  /** Applies the bootstrap file's leader election and `http` to the manager's options (in place). */
  configure(options: ManagerOptions): void;
  /** Sets the registered controllers' workers from `controllerConcurrency` (Furiko's default 4 × CPUs); returns them by controller. */
  configureControllers(mgr: Manager): Record<string, number>;
  /** Adds the dynamic ConfigMap's (and Secret's) watcher to the manager (it starts with it, on every replica). */
  watchDynamicConfig(mgr: Manager): DynamicConfigWatcher;
}

/** The command line as `parseManagerFlags` read it: what it returned, or `configFlag` (what it last read). */
export interface ParsedCommandLine {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly given: ReadonlySet<string>;
}

/**
 * Furiko's start-up for the parsed command line: the bootstrap file of `--config`, read here. Without
 * `--config`, Furiko's defaults: the ConfigMap furiko-system/execution-dynamic-config, no Secret, no leader
 * election from the file, 4 × CPUs workers.
 */
export function furikoBootstrap(flags: ParsedCommandLine = configFlag, config: FurikoConfig = sharedFurikoConfig): FurikoStartup {
  const configPath = typeof flags.values.config === 'string' ? flags.values.config : undefined;
  const bootstrap = configPath !== undefined ? readBootstrapConfig(configPath) : defaultBootstrapConfig;
  return {
    bootstrap,
    configure(options) {
      Object.assign(options, withBootstrapConfig(options, bootstrap));
      applyHttpSpec(options, bootstrap.http, flags.given, configPath ?? '--config');
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
