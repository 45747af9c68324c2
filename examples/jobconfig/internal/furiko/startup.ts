/**
 * What cmd/main.ts adds to the scaffold's start-up for Furiko: `--config <file>` (the bootstrap
 * configuration) taken out of the command line before the manager's flags are parsed, its leader election
 * applied to the manager's options, and the dynamic ConfigMap it names watched, so the shared configuration
 * (sharedFurikoConfig) follows the ConfigMap without a restart.
 */
import type { Manager, ManagerOptions } from 'kubeforge/runtime';
import { CONFIG_FLAG_USAGE, defaultBootstrapConfig, readBootstrapConfig, takeConfigFlag, withBootstrapConfig, type BootstrapConfig } from './bootstrap-config.js';
import { sharedFurikoConfig, type FurikoConfig } from './config.js';
import { DynamicConfigWatcher } from './dynamic-config-watcher.js';

export interface FurikoStartup {
  readonly bootstrap: BootstrapConfig;
  /** The `--config` line for `--help`. */
  readonly usage: string;
  /** Applies the bootstrap file's leader election to the manager's options (in place). */
  configure(options: ManagerOptions): void;
  /** Adds the dynamic ConfigMap's watcher to the manager (it starts with it, on every replica). */
  watchDynamicConfig(mgr: Manager): DynamicConfigWatcher;
}

/**
 * Reads `--config` from `argv` (process.argv: node, script, flags…) and removes it there, so the manager's
 * flag parser sees only its own flags. Without `--config`, Furiko's defaults: the ConfigMap
 * furiko-system/execution-dynamic-config and no leader election from the file.
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
    },
    watchDynamicConfig(mgr) {
      const watcher = new DynamicConfigWatcher(config, bootstrap.dynamicConfigMap);
      mgr.add(watcher);
      return watcher;
    },
  };
}
