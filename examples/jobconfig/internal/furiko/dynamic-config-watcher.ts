/**
 * Keeps the shared Furiko configuration in step with the dynamic ConfigMap, as Furiko's ConfigMapLoader:
 * an informer on that one ConfigMap (its namespace, `metadata.name` field selector); each add or update is
 * parsed over Furiko's defaults and written into the shared config, so webhooks and controllers use it at
 * their next read without a restart. With a dynamic Secret configured (Furiko's SecretLoader), a second
 * informer watches it and its fields are parsed over the ConfigMap's (the Secret wins, field by field).
 * A document that does not parse is logged and the last good configuration stays; a deleted ConfigMap or
 * Secret changes nothing (Furiko watches adds and updates only). It runs on every replica (webhooks need it
 * too), not only on the leader.
 */
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, compareResourceVersions, Informer, isComparableResourceVersion, type KindRef, type Manager, type Runnable } from 'kubeforge/runtime';
import { updateFurikoConfig, type FurikoConfig } from './config.js';
import { parseDynamicConfig } from './dynamic-config.js';

// +kubebuilder:rbac:groups="",resources=configmaps,verbs=list;watch
// (No marker for Secrets: the Secret is optional, its Role is config/rbac/dynamic_config_secret_role.yaml.)

type ObjectName = { namespace: string; name: string };

/** How long start() waits for the first list, as Furiko's loader (3 minutes of real time). */
const SYNC_TIMEOUT_MS = 3 * 60_000;

export class DynamicConfigWatcher implements Runnable {
  readonly needLeaderElection = false;
  private informers: Array<Informer<ConfigMap> | Informer<Secret>> = [];
  private configMapData: Readonly<Record<string, string>> | undefined;
  private secretData: Readonly<Record<string, string>> | undefined;
  private seenVersion = '0';
  private readonly waiters: Array<{ version: string; resolve: () => void }> = [];

  constructor(
    private readonly config: FurikoConfig,
    readonly configMap: ObjectName,
    readonly secret?: ObjectName,
  ) {}

  async start(mgr: Manager): Promise<void> {
    const { namespace, name } = this.configMap;
    const log = mgr.logger.child({ configMap: `${namespace}/${name}`, ...(this.secret ? { secret: `${this.secret.namespace}/${this.secret.name}` } : {}) });
    const reload = () => {
      try {
        const fromConfigMap = parseDynamicConfig(this.configMapData, `ConfigMap ${namespace}/${name}`);
        const next = this.secret ? parseDynamicConfig(this.secretData, `Secret ${this.secret.namespace}/${this.secret.name}`, fromConfigMap) : fromConfigMap;
        const changed = updateFurikoConfig(this.config, next);
        if (changed.length) log.info({ changed, config: { ...this.config } }, 'dynamic config: loaded');
      } catch (err) {
        log.error({ err: (err as Error).message }, 'dynamic config: cannot load, keeping the last good configuration');
      }
    };
    const configMaps = this.informerOn<ConfigMap>(mgr, BuiltinKinds.ConfigMap, this.configMap, log, (configMap) => {
      this.configMapData = configMap.data;
      reload();
      this.observe(configMap.metadata?.resourceVersion);
    });
    const secrets = this.secret
      ? [
          this.informerOn<Secret>(mgr, BuiltinKinds.Secret, this.secret, log, (secret) => {
            this.secretData = decodeSecretData(secret);
            reload();
            this.observe(secret.metadata?.resourceVersion);
          }),
        ]
      : [];
    this.informers = [configMaps, ...secrets];
    for (const informer of this.informers) informer.start();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.error('dynamic config: not listed in time, using the defaults until it is');
        resolve();
      }, SYNC_TIMEOUT_MS);
      timer.unref();
    });
    await Promise.race([Promise.all(this.informers.map((informer) => informer.waitForSync())), timedOut]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    const informers = this.informers;
    this.informers = [];
    await Promise.all(informers.map((informer) => informer.stop()));
  }

  /** An informer on the one object `ref` of `kind` calling `apply` on each add and update. */
  private informerOn<T extends ConfigMap | Secret>(mgr: Manager, kind: KindRef<T>, ref: ObjectName, log: Manager['logger'], apply: (object: T) => void): Informer<T> {
    const informer = new Informer<T>({
      kind: mgr.kinds.resolve(kind),
      client: mgr.client,
      transport: mgr.transport,
      namespace: ref.namespace,
      fieldSelector: `metadata.name=${ref.name}`,
      logger: log,
    });
    informer.addHandler({ onAdd: apply, onUpdate: (_old, object) => apply(object) });
    return informer;
  }

  /** Resolves once the ConfigMap at `resourceVersion` (or a later one) has been applied or rejected. */
  observed(resourceVersion: string | undefined): Promise<void> {
    const version = versionOf(resourceVersion);
    if (!isAbove(version, this.seenVersion)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ version, resolve }));
  }

  private observe(resourceVersion: string | undefined): void {
    const version = versionOf(resourceVersion);
    if (isAbove(version, this.seenVersion)) this.seenVersion = version;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (!isAbove(this.waiters[i]!.version, this.seenVersion)) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }
}

/** A Secret's `data` as text (the API server gives it base64-encoded). */
function decodeSecretData(secret: Secret): Record<string, string> {
  return Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
}

/** A resourceVersion the runtime can order (the local cluster's and etcd's are decimal); "0" when absent or not numeric. */
function versionOf(resourceVersion: string | undefined): string {
  return isComparableResourceVersion(resourceVersion) ? resourceVersion : '0';
}

const isAbove = (a: string, b: string): boolean => compareResourceVersions(a, b) === 1;
