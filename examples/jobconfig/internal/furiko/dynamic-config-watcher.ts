/**
 * Keeps the shared Furiko configuration in step with the dynamic ConfigMap, as Furiko's ConfigMapLoader:
 * an informer on that one ConfigMap (its namespace, `metadata.name` field selector); each add or update is
 * parsed over Furiko's defaults and written into the shared config, so webhooks and controllers use it at
 * their next read without a restart. A ConfigMap that does not parse is logged and the last good
 * configuration stays; a deleted ConfigMap changes nothing (Furiko watches adds and updates only). It runs
 * on every replica (webhooks need it too), not only on the leader.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, Informer, type Manager, type Runnable } from 'kubeforge/runtime';
import { updateFurikoConfig, type FurikoConfig } from './config.js';
import { parseDynamicConfig } from './dynamic-config.js';

// +kubebuilder:rbac:groups="",resources=configmaps,verbs=list;watch

/** How long start() waits for the first list, as Furiko's loader (3 minutes of real time). */
const SYNC_TIMEOUT_MS = 3 * 60_000;

export class DynamicConfigWatcher implements Runnable {
  readonly needLeaderElection = false;
  private informer: Informer<ConfigMap> | undefined;
  private seenVersion = 0n;
  private readonly waiters: Array<{ version: bigint; resolve: () => void }> = [];

  constructor(
    private readonly config: FurikoConfig,
    private readonly configMap: { namespace: string; name: string },
  ) {}

  async start(mgr: Manager): Promise<void> {
    const { namespace, name } = this.configMap;
    const log = mgr.logger.child({ configMap: `${namespace}/${name}` });
    const informer = new Informer<ConfigMap>({
      kind: mgr.kinds.resolve(BuiltinKinds.ConfigMap),
      client: mgr.client,
      transport: mgr.transport,
      namespace,
      fieldSelector: `metadata.name=${name}`,
      logger: log,
    });
    const apply = (configMap: ConfigMap) => {
      try {
        const changed = updateFurikoConfig(this.config, parseDynamicConfig(configMap.data, `ConfigMap ${namespace}/${name}`));
        if (changed.length) log.info({ changed, config: { ...this.config } }, 'dynamic config: loaded');
      } catch (err) {
        log.error({ err: (err as Error).message }, 'dynamic config: cannot load, keeping the last good configuration');
      }
      this.observe(configMap.metadata?.resourceVersion);
    };
    informer.addHandler({ onAdd: apply, onUpdate: (_old, configMap) => apply(configMap) });
    this.informer = informer;
    informer.start();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.error('dynamic config: ConfigMap not listed in time, using the defaults until it is');
        resolve();
      }, SYNC_TIMEOUT_MS);
      timer.unref();
    });
    await Promise.race([informer.waitForSync(), timedOut]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    await this.informer?.stop();
    this.informer = undefined;
  }

  /** Resolves once the ConfigMap at `resourceVersion` (or a later one) has been applied or rejected. */
  observed(resourceVersion: string | undefined): Promise<void> {
    const version = versionOf(resourceVersion);
    if (version <= this.seenVersion) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ version, resolve }));
  }

  private observe(resourceVersion: string | undefined): void {
    const version = versionOf(resourceVersion);
    if (version > this.seenVersion) this.seenVersion = version;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.version <= this.seenVersion) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }
}

/** A resourceVersion as a number (the local cluster's and etcd's are decimal); 0 when absent or not numeric. */
function versionOf(resourceVersion: string | undefined): bigint {
  return resourceVersion && /^\d+$/.test(resourceVersion) ? BigInt(resourceVersion) : 0n;
}
