/**
 * The manager runs an operator: one shared cache and client, the controllers and other runnables, leader
 * election on a Lease (controllers and runnables that need it start only while leading), /healthz and
 * /readyz on the probe port, /metrics on its own metrics server (HTTPS with TokenReview and
 * SubjectAccessReview when asked, as in controller-runtime), pino logs, and graceful shutdown (stop taking
 * work, finish in-flight reconciles, release the lease) bounded by `gracefulShutdownTimeoutMs`: past it the
 * in-flight reconciles are abandoned and `stop()` rejects, so SIGTERM always ends the process in time.
 * `stop()` then `start()` begins again from a fresh cache (every object re-listed). A leader that loses its
 * lease stops at once: writes are fenced, requests in flight are reset, controllers stop taking keys, and
 * (by default, as controller-runtime) the process exits with status 1 after logging "leader election lost".
 */
import type { Logger } from 'pino';
import { newLogger } from '../logging/logger.js';
import { ControllerBuilder, type ControllerHost } from '../builder/builder.js';
import { duplicateNameMessage } from '../builder/builder-checks.js';
import { Cache, type KindScope } from '../cache/cache.js';
import { metricsObserver, type InformerObserver } from '../cache/informer-observer.js';
import type { IndexFunc } from '../cache/object-store.js';
import { realClock, type Clock } from '../clock.js';
import { asError, errorMessage } from '../as-error.js';
import { Client } from '../client/client.js';
import { apiVersionOf, defaultKindRegistry, type KindRef, type KindRegistry } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { Transport } from '../client/transport.js';
import { DEFAULT_READ_YOUR_OWN_WRITES_TIMEOUT_MS, ReadYourOwnWrites, type CacheScope, type ReadYourOwnWritesOptions } from '../client/read-your-own-writes.js';
import { parseLabelSelector, type LabelMatcher } from '../cache/label-selector.js';
import { inClusterIfInPod, inClusterKubeConfig, SERVICE_ACCOUNT_DIR_ENV } from '../client/in-cluster.js';
import { Kubeconfig, type KubeConfigLike } from '../client/kubeconfig.js';
import type { Controller, ControllerRunContext } from '../controller/controller.js';
import { EventRecorder, type EventRecorderOptions } from '../helpers/recorder.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import { ManagerMetrics } from './metrics.js';
import { CacheSlot } from './cache-slot.js';
import { bindFailure, parseBindAddress, type ServerName } from './bind-address.js';
import { MetricsAuthFilter } from './metrics-auth.js';
import { MetricsServer, type MetricsServerOptions } from './metrics-server.js';
import { ProbeServer, type Check } from './probes.js';
import { WebhookBuilder } from '../builder/webhook-builder.js';
import { WebhookServer, type WebhookServerOptions } from '../webhook/server.js';

export interface Runnable {
  start(manager: Manager): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** Start only while this manager holds the leader lease (default true). */
  needLeaderElection?: boolean;
}

/** How long stop() waits for runnables and in-flight reconciles (controller-runtime's GracefulShutdownTimeout: 30 s). */
export const DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS = 30_000;

export interface ManagerOptions {
  /**
   * A kubeconfig file, or a loaded configuration (kubeforge's `Kubeconfig` or a client-node `KubeConfig`).
   * Default: $KUBECONFIG, else in-cluster from $KUBEFORGE_SERVICEACCOUNT_DIR when set, else ~/.kube/config,
   * else in-cluster (client-node's loadFromDefault order).
   */
  kubeConfig?: KubeConfigLike | string;
  clock?: Clock;
  kinds?: KindRegistry;
  /** Cache scope and behaviour. */
  cache?: {
    namespace?: string;
    byKind?: Record<string, KindScope>;
    frozen?: boolean;
    keepManagedFields?: boolean;
    stallTimeoutMs?: number;
    /** Measure stallTimeoutMs and readiness's 15 s grace for a lost watch on the manager's clock instead of real time (default false). */
    stallOnManagerClock?: boolean;
    /** Informers also compare the cluster identity (kube-system uid) before re-watching; needs get on namespaces (default false). */
    checkClusterIdentity?: boolean;
    backoffInitialMs?: number;
    backoffMaxMs?: number;
    watchTimeoutSeconds?: number;
    /**
     * controller-runtime's `SyncPeriod`: every this many ms of the manager's clock after its sync, each informer
     * hands every cached object to its handlers again as an update (old and new the same object), so every
     * object is reconciled again. Off by default (controller-runtime's default is 10 hours; kubeforge leaves it
     * to the project).
     */
    syncPeriodMs?: number;
    /** More observers of every informer (cache/informer-observer.ts), beside the manager's metrics and activity count. */
    observers?: InformerObserver[];
  };
  leaderElection?: LeaderElectionOptions;
  /**
   * When the lease is lost (not renewed within renewDeadline, or taken): 'exit' (default, controller-runtime's
   * behaviour) logs "leader election lost" and exits the process with status 1; 'campaign' stops the
   * leader's work the same way and stays up as a standby that campaigns again.
   */
  onLeaderElectionLost?: 'exit' | 'campaign';
  /** The client's requests (watches excepted: their opening only; the informer's stall detection after). */
  client?: {
    /** Deadline of each request in ms (default 60 s, the API server's own request timeout; 0 = none). */
    requestTimeoutMs?: number;
    /** Measure request deadlines on the manager's clock instead of real time (tests on a virtual clock). */
    timeoutOnManagerClock?: boolean;
  };
  /** Serve /healthz and /readyz on this port of 127.0.0.1 (0 = any free port); off when undefined. */
  probePort?: number;
  /**
   * Or a Go-style address for the probes (kubebuilder's --health-probe-bind-address): ":8081" listens on
   * every interface, as the kubelet's probes need in a pod; "0" turns them off. Wins over probePort.
   */
  probeBindAddress?: string;
  /**
   * The metrics server (controller-runtime's metricsserver.Options): `{ bindAddress: ':8443',
   * secureServing: true }` serves HTTPS with the TokenReview/SubjectAccessReview filter; `':8080'` plain
   * HTTP; `'0'` or no option: no metrics server.
   */
  metrics?: MetricsServerOptions;
  logger?: Logger;
  /** The client's field owner: the field manager of server-side applies that name none (no default: such an apply is refused). */
  fieldManager?: string;
  /** Default per-key backoff for controllers (default exponential 5 ms → 1000 s). */
  rateLimiter?: () => RateLimiter;
  /**
   * Real milliseconds stop() waits for controllers and runnables to end (controller-runtime's
   * GracefulShutdownTimeout, default 30 s); past it in-flight reconciles are abandoned and stop() rejects.
   * 0: do not wait; negative: wait for ever. Real time, not the manager's clock: it bounds how long the
   * process outlives SIGTERM (the kubelet's terminationGracePeriodSeconds is wall-clock time).
   */
  gracefulShutdownTimeoutMs?: number;
  /** Webhook server settings; it starts with the manager once a handler is registered. */
  webhook?: WebhookServerOptions;
  /**
   * `{ enabled: true }`: a cached read after this client's own write of the kind sees at least that write,
   * waiting up to `timeoutMs` (manager clock, default 3 s) for the cache, then reading from the API server
   * (client/read-your-own-writes.ts). Off by default, as in controller-runtime.
   */
  readYourOwnWrites?: ReadYourOwnWritesOptions;
  /** Defaults for every controller (controller-runtime's config.Controller). */
  controller?: {
    /**
     * Warm replicas (controller-runtime 0.21's EnableWarmup): while not leading, start the controllers'
     * sources, caches and queues (no reconciles), so a new leader reconciles at once, with no list and no
     * cache sync to wait for. Per controller: `withOptions({ enableWarmup })`. Default false.
     */
    enableWarmup?: boolean;
  };
}

export class Manager implements ControllerHost {
  readonly kinds: KindRegistry;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics = new ManagerMetrics();
  readonly kubeConfig: KubeConfigLike;
  readonly transport: Transport;
  /** Reads from the cache for watched kinds, the server otherwise; writes to the server. */
  readonly client: Client;
  private cache: Cache;
  /** The manager client's read-your-own-writes, when enabled. */
  private readonly ownWrites: ReadYourOwnWrites | undefined;
  /** Register defaulters, validators and converters here before start(). */
  readonly webhookServer: WebhookServer;
  private readonly controllers: Controller[] = [];
  private readonly runnables: Runnable[] = [];
  private readonly indexes: Array<{ kind: KindRef; name: string; fn: IndexFunc<KubeObject> }> = [];
  private readonly readyChecks: Record<string, Check> = {};
  private elector: LeaderElector | undefined;
  private probes: ProbeServer | undefined;
  private readonly probeAddress: { port: number; host: string } | undefined;
  private metricsServer: MetricsServer | undefined;
  private leading = false;
  private running = false;
  private leaderWork: Promise<void> = Promise.resolve();
  /** Ends runUntilSignal() with a runnable's start failure (controller-runtime's Start returning its error). */
  private failRun: ((err: Error) => void) | undefined;
  private activityCount = 0;
  /**
   * Informer state changes and failures count as activity (settle() waits until it stops moving); events
   * are counted by the informers themselves (progress() adds them up), with no call per event.
   */
  private readonly activityObserver: InformerObserver = { onStateChange: () => this.activity(), onError: () => this.activity() };
  /** Events received by the caches stop() replaced (progress() never moves back). */
  private retiredEvents = 0;
  /** The current cache, as the client reads it. */
  private readonly cacheSlot: CacheSlot;
  probePort: number | undefined;
  /** The metrics server's port while it runs. */
  metricsPort: number | undefined;

  constructor(private readonly options: ManagerOptions = {}) {
    this.kinds = options.kinds ?? defaultKindRegistry;
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? newLogger({ level: process.env.KUBEFORGE_LOG_LEVEL ?? 'info' });
    this.probeAddress = probeAddressOf(options);
    if (options.metrics) parseBindAddress(options.metrics.bindAddress); // a bad address fails here, not at start()
    this.kubeConfig = loadKubeConfig(options.kubeConfig);
    this.transport = new Transport(this.kubeConfig, {
      requestTimeoutMs: options.client?.requestTimeoutMs,
      ...(options.client?.timeoutOnManagerClock ? { timeoutClock: this.clock } : {}),
    });
    this.transport.onActivity(() => this.activity());
    const reader = (this.cacheSlot = new CacheSlot(undefined as never));
    if (options.readYourOwnWrites?.enabled) {
      const timeoutMs = options.readYourOwnWrites.timeoutMs ?? DEFAULT_READ_YOUR_OWN_WRITES_TIMEOUT_MS;
      this.ownWrites = new ReadYourOwnWrites(() => this.cache, () => this.apiReader(), this.clock, timeoutMs, this.logger, cacheScopeOf(options.cache));
    }
    const ownWrites = this.ownWrites;
    this.client = new Client(this.transport, this.kinds, ownWrites ? { serves: (info) => ownWrites.serves(info), get: (info, key) => ownWrites.get(info, key), list: (info, opts) => ownWrites.list(info, opts), wrote: (info, written, key, deletedUid) => ownWrites.wrote(info, written, key, deletedUid) } : reader, options.fieldManager);
    this.cache = reader.cache = this.newCache();
    this.webhookServer = new WebhookServer({ logger: this.logger, ...options.webhook });
    this.readyChecks.informers = () => this.cache.healthy() || 'caches not synced or watch down';
  }

  /** The builder entry point: `mgr.controllerFor(Kind).owns(Other).complete(reconciler)`. */
  controllerFor<T extends KubeObject>(kind: KindRef<T>): ControllerBuilder<T> {
    return new ControllerBuilder<T>(this, kind);
  }

  /** A builder with no kind yet (controller-runtime's ControllerManagedBy): `.for(Kind)`, or `.named(n).watches(…)`. */
  controllerManagedBy(): ControllerBuilder {
    return new ControllerBuilder(this);
  }

  hasController(name: string): boolean {
    return this.controllers.some((c) => c.name === name);
  }

  /** The webhook builder: `mgr.webhookFor(Kind).withDefaulter(d).withConversion(c).complete()`. */
  webhookFor<T extends KubeObject>(kind: KindRef<T>): WebhookBuilder<T> {
    return new WebhookBuilder<T>(this, kind);
  }

  /** Registers a controller; its name must be unique in this manager (it labels the controller's metrics). */
  addController(controller: Controller): void {
    if (this.hasController(controller.name)) throw new Error(duplicateNameMessage(controller.name));
    this.controllers.push(controller);
    if (this.running && !this.leading && this.options.leaderElection && this.warmsUp(controller)) controller.warmup(this.controllerContext());
    if (this.running && (this.leading || !this.options.leaderElection)) void this.startReported(`controller ${controller.name}`, () => this.startController(controller)).catch(() => {}); // reported, and ends runUntilSignal
  }

  add(runnable: Runnable): void {
    this.runnables.push(runnable);
    const canRun = runnable.needLeaderElection === false || this.leading || !this.options.leaderElection;
    if (this.running && canRun) void this.startReported(runnableName(runnable), () => runnable.start(this)).catch(() => {}); // reported, and ends runUntilSignal
  }

  /** A field index on a kind's cache, kept across manager restarts. */
  indexField<T extends KubeObject>(kind: KindRef<T>, name: string, fn: IndexFunc<T>): void {
    this.indexes.push({ kind, name, fn: fn as IndexFunc<KubeObject> });
    this.cache.indexField(kind, name, fn);
  }

  addReadyCheck(name: string, check: Check): void {
    this.readyChecks[name] = check;
  }

  getCache(): Cache {
    return this.cache;
  }

  /** A client that always reads from the API server. */
  apiReader(): Client {
    return this.client.apiReader();
  }

  /** An event recorder for `component`; `{ api: 'events.k8s.io/v1' }` writes the newer Events with series. */
  eventRecorderFor(component: string, options: EventRecorderOptions = {}): EventRecorder {
    return new EventRecorder(this.client, this.clock, component, this.logger, options);
  }

  /** `http(s)://127.0.0.1:<port>/metrics` while the metrics server runs. */
  metricsUrl(): string | undefined {
    return this.metricsServer?.url;
  }

  isLeader(): boolean {
    return this.leading;
  }

  controllerList(): readonly Controller[] {
    return this.controllers;
  }

  /** Starts caches, probes, leader election and (while leading) controllers; resolves once they run. */
  async start(): Promise<void> {
    if (this.running) throw new Error('manager is already running');
    this.running = true;
    this.cache.start();
    try {
      await this.startServers();
    } catch (err) {
      // A port taken or forbidden: nothing keeps running, and the caller gets a BindError naming the server and port.
      await this.stop().catch(() => {});
      throw err;
    }
    for (const r of this.runnables) if (r.needLeaderElection === false) await this.startReported(runnableName(r), () => r.start(this));
    if (this.options.leaderElection) {
      this.elector = new LeaderElector(this.apiReader(), this.clock, this.options.leaderElection, {
        onStartedLeading: () => {
          this.leading = true;
          this.metrics.setLeader(this.options.leaderElection!.id, true);
          this.leaderWork = this.leaderWork.then(() => this.startLeaderWork()).catch(() => {}); // each failure was reported by startReported
        },
        onStoppedLeading: ({ lost, reason }) => {
          this.metrics.setLeader(this.options.leaderElection!.id, false);
          if (!this.leading) return;
          this.leading = false;
          if (lost) this.leaderElectionLost(reason);
          else this.leaderWork = this.leaderWork.then(() => this.stopLeaderWork()).then(() => this.warmUp());
        },
        // controller-runtime gives the lock a recorder named after the candidate's identity (core/v1 Events)
        recordEvent: (lease, message) => void this.eventRecorderFor(this.elector!.identity).event({ ...lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }, 'Normal', 'LeaderElection', message),
      }, this.logger);
      this.warmUp();
      this.elector.start();
      return;
    }
    this.leading = true;
    await this.startLeaderWork();
  }

  /** The probe, metrics and webhook servers; a listen failure becomes a BindError (bind-address.ts). */
  private async startServers(): Promise<void> {
    const listen = async <T>(server: ServerName, address: string | number, start: () => Promise<T>): Promise<T> => {
      try {
        return await start();
      } catch (err) {
        throw bindFailure(server, address, err);
      }
    };
    // As kubebuilder advises (`mgr.AddReadyzCheck("webhook", mgr.GetWebhookServer().StartedChecker())`): a
    // manager serving webhooks is not Ready before its webhook server listens (the probe server starts first,
    // and the certificates may take a while), so its Service gets no endpoint the API server would be refused at.
    if (this.webhookServer.hasHandlers()) this.readyChecks.webhook ??= () => this.webhookServer.started() || 'webhook server not started';
    if (this.probeAddress) {
      const probes = new ProbeServer({ ...this.probeAddress, healthChecks: { ping: () => true }, readyChecks: this.readyChecks });
      this.probes = probes;
      this.probePort = await listen('health probe', this.options.probeBindAddress ?? this.probeAddress.port, () => probes.start());
    }
    if (this.options.metrics) {
      const filter = MetricsServer.wantsFilter(this.options.metrics) ? new MetricsAuthFilter({ transport: this.transport, clock: this.clock }) : undefined;
      const metricsServer = new MetricsServer(this.options.metrics, this.metrics.registry, filter, this.logger);
      this.metricsServer = metricsServer;
      this.metricsPort = await listen('metrics', this.options.metrics.bindAddress, () => metricsServer.start());
    }
    if (this.webhookServer.hasHandlers()) await listen('webhook', this.options.webhook?.port ?? 0, () => this.webhookServer.start());
  }

  /**
   * Graceful shutdown: controllers finish in-flight reconciles, the lease is released, watches close — within
   * `gracefulShutdownTimeoutMs`; past it the in-flight reconciles are abandoned (their signals abort), the
   * client's requests in flight are reset, the failure is logged and stop() rejects with controller-runtime's
   * message (the rest of the shutdown goes on).
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const graceMs = this.options.gracefulShutdownTimeoutMs ?? DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS;
    const stopping = this.stopEverything();
    if (graceMs < 0) return stopping;
    let timer: NodeJS.Timeout | undefined;
    const graceEnded = new Promise<'grace ended'>((resolve) => (timer = setTimeout(() => resolve('grace ended'), graceMs)));
    try {
      if ((await Promise.race([stopping, graceEnded])) !== 'grace ended') return;
    } finally {
      clearTimeout(timer);
    }
    const message = `failed waiting for all runnables to end within grace period of ${graceMs / 1000}s: context deadline exceeded`;
    for (const c of this.controllers) c.abandonInFlight(message);
    const abortedRequests = this.transport.abortInFlight('shutdown grace period ended'); // a hung request holds no socket open
    stopping.catch((err: unknown) => this.logger.error({ err: errorMessage(err) }, 'shutdown after the grace period failed'));
    this.logger.error({ abortedRequests }, message);
    throw new Error(message);
  }

  /** stop() has begun: leader work that has not started its controllers yet does not start them. */
  private stopping = false;

  private async stopEverything(): Promise<void> {
    const wasLeading = this.leading;
    this.leading = false;
    // A controller still waiting for its caches (a kind whose CRD is not installed never syncs) would hold
    // the leader work, and so this stop, until the grace period ends: it gives up its start instead.
    this.stopping = true;
    for (const c of this.controllers) c.cancelStart();
    await this.leaderWork;
    this.stopping = false;
    if (wasLeading) await this.stopLeaderWork();
    else await Promise.all(this.controllers.map((c) => c.stop())); // warm controllers stop their sources
    await this.elector?.stop();
    this.elector = undefined;
    for (const r of this.runnables) if (r.needLeaderElection === false) await r.stop?.();
    await this.cache.stop();
    await this.webhookServer.stop();
    await this.probes?.stop();
    this.probes = undefined;
    await this.metricsServer?.stop();
    this.metricsServer = undefined;
    this.metricsPort = undefined;
    this.retiredEvents += this.cache.eventsReceived();
    this.cache = this.cacheSlot.cache = this.newCache();
    this.activity();
  }

  /** Closes the client's connections (after stop; the manager cannot start again). */
  close(): void {
    this.transport.close();
  }

  /**
   * Starts, then stops gracefully on SIGTERM or SIGINT. Rejects (for the caller to exit non-zero) when the
   * grace period ran out; the client's connections are closed either way so nothing holds the process.
   */
  async runUntilSignal(): Promise<void> {
    const failed = new Promise<never>((_, reject) => (this.failRun = reject));
    failed.catch(() => {}); // observed below; never an unhandled rejection
    let onSignal: ((signal: string) => void) | undefined;
    const signalled = new Promise<void>((resolve, reject) => {
      onSignal = (signal: string) => {
        this.logger.info({ signal }, 'shutting down');
        process.off('SIGTERM', onSignal!);
        process.off('SIGINT', onSignal!);
        this.stop().then(resolve, reject);
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    });
    try {
      await Promise.race([this.start().then(() => Promise.race([signalled, failed])), failed]);
    } catch (err) {
      // A runnable failed (or start did): stop the rest gracefully, then hand the error to the caller.
      process.off('SIGTERM', onSignal!);
      process.off('SIGINT', onSignal!);
      await this.stop().catch((stopErr: unknown) => this.logger.error({ err: errorMessage(stopErr) }, 'stopping after a failure failed'));
      throw err;
    } finally {
      this.failRun = undefined;
      this.close();
    }
  }

  /** No reconcile queued or running, no request in flight, every watch delivering (for settle()). */
  isIdle(): boolean {
    return this.transport.pending() === 0 && this.controllers.every((c) => c.isIdle()) && (!this.running || this.cache.isIdle());
  }

  /** A counter that moves whenever anything happens (requests, events, queue changes). */
  progress(): number {
    let queueChanges = 0;
    for (const c of this.controllers) queueChanges += c.queueChanges();
    return this.activityCount + this.retiredEvents + this.cache.eventsReceived() + queueChanges;
  }

  /**
   * The lease is gone: from this instant no write of this manager may land. Writes are fenced, requests in
   * flight are reset (a stalled path then cannot deliver them later), controllers stop taking keys; then
   * the process exits 1 (default) or, with onLeaderElectionLost 'campaign', the fence lifts once the
   * leader's work has stopped and the manager stays a standby.
   */
  private leaderElectionLost(reason: string | undefined): void {
    this.transport.fenceWrites('leader election lost');
    const aborted = this.transport.abortInFlight('leader election lost');
    this.logger.error({ lease: `${this.options.leaderElection!.namespace}/${this.options.leaderElection!.id}`, reason, abortedRequests: aborted }, 'leader election lost');
    this.leaderWork = this.leaderWork
      .then(() => this.stopLeaderWork())
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'stopping the leader work failed'))
      .finally(() => {
        if (this.options.onLeaderElectionLost === 'campaign') {
          this.transport.fenceWrites(undefined);
          this.warmUp(); // a standby again: warm as before
        }
      });
    if ((this.options.onLeaderElectionLost ?? 'exit') === 'exit') process.exit(1);
  }

  private async startLeaderWork(): Promise<void> {
    for (const r of this.runnables) if (r.needLeaderElection !== false) await this.startReported(runnableName(r), () => r.start(this));
    if (this.stopping) return;
    await Promise.all(this.controllers.map((c) => this.startReported(`controller ${c.name}`, () => this.startController(c))));
  }

  /**
   * Starts one runnable and awaits it; a failure (thrown or rejected) is logged at error with the runnable's
   * name, ends runUntilSignal() with that error (as controller-runtime's Start returns it), and is rethrown.
   */
  private async startReported(name: string, start: () => Promise<void> | void): Promise<void> {
    try {
      await start();
    } catch (err) {
      const error = asError(err);
      this.logger.error({ runnable: name, err: error.message }, 'runnable failed to start');
      this.failRun?.(error);
      throw error;
    }
  }

  private async stopLeaderWork(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop()));
    for (const r of this.runnables) if (r.needLeaderElection !== false) await r.stop?.();
  }

  private startController(controller: Controller): Promise<void> {
    return controller.start(this.controllerContext());
  }

  /** A running manager that does not lead warms up its controllers that want it. */
  private warmUp(): void {
    if (!this.running || this.leading || this.stopping) return;
    for (const c of this.controllers) if (this.warmsUp(c)) c.warmup(this.controllerContext());
  }

  /** Warm replicas on for this controller (its own option, else the manager's). */
  private warmsUp(controller: Controller): boolean {
    return controller.options.enableWarmup ?? this.options.controller?.enableWarmup ?? false;
  }

  private controllerContext(): ControllerRunContext {
    return {
      cache: this.cache,
      clock: this.clock,
      logger: this.logger,
      client: this.client,
      metrics: this.metrics.controller,
      defaultRateLimiter: this.options.rateLimiter,
      onActivity: () => this.activity(),
    };
  }

  private newCache(): Cache {
    const { stallOnManagerClock, observers = [], ...cacheOptions } = this.options.cache ?? {};
    const cache = new Cache({
      client: this.client.apiReader(),
      transport: this.transport,
      kinds: this.kinds,
      ...cacheOptions,
      ...(stallOnManagerClock ? { stallClock: this.clock } : {}),
      resyncClock: this.clock,
      logger: this.logger,
      // Metrics, the activity count settle() watches and read-your-own-writes' waits are all informer observers.
      observers: [metricsObserver(this.metrics.informer), this.activityObserver, ...(this.ownWrites ? [ownWritesObserver(this.ownWrites)] : []), ...observers],
    });
    for (const index of this.indexes) cache.indexField(index.kind, index.name, index.fn);
    return cache;
  }

  private activity(): void {
    this.activityCount++;
  }
}

/**
 * The cache's watch scope of a kind (cache.namespace, byKind's namespace, label selector and field selector),
 * for read-your-own-writes: a field selector is not checked here, so an object that passes the rest is 'unknown'.
 */
function cacheScopeOf(cache: ManagerOptions['cache']): CacheScope {
  const labelMatchers = new Map<string, LabelMatcher>();
  return (info, obj) => {
    const id = `${apiVersionOf(info)}/${info.kind}`;
    const scope = cache?.byKind?.[id];
    const namespace = info.namespaced ? (scope?.namespace ?? cache?.namespace) : undefined;
    if (namespace !== undefined && obj.metadata?.namespace !== namespace) return 'out';
    if (scope?.labelSelector !== undefined) {
      let matches = labelMatchers.get(id);
      if (!matches) labelMatchers.set(id, (matches = parseLabelSelector(scope.labelSelector)));
      if (!matches(obj.metadata?.labels)) return 'out';
    }
    return scope?.fieldSelector ? 'unknown' : 'in';
  };
}

/** A runnable's name in logs: its class name, if it has one of its own. */
function runnableName(runnable: Runnable): string {
  const name = runnable.constructor?.name;
  return name && name !== 'Object' ? name : 'runnable';
}

/** Where the probes listen: probeBindAddress (every interface unless it names a host), else probePort on loopback. */
function probeAddressOf(options: ManagerOptions): { port: number; host: string } | undefined {
  if (options.probeBindAddress !== undefined) {
    const parsed = parseBindAddress(options.probeBindAddress, 'health probe bind address');
    return parsed && { port: parsed.port, host: parsed.host ?? '' };
  }
  return options.probePort === undefined ? undefined : { port: options.probePort, host: '127.0.0.1' };
}

function loadKubeConfig(source: KubeConfigLike | string | undefined): KubeConfigLike {
  if (typeof source === 'string') return Kubeconfig.fromFile(source);
  if (source) return source;
  // in a pod of the local cluster (no KUBECONFIG there): the token, CA and namespace the kubelet wrote
  if (!process.env.KUBECONFIG && process.env[SERVICE_ACCOUNT_DIR_ENV]) return inClusterKubeConfig();
  return Kubeconfig.fromDefault(inClusterIfInPod);
}

/** Read-your-own-writes looks again at what the caches have seen after every event and state change. */
function ownWritesObserver(ownWrites: ReadYourOwnWrites): InformerObserver {
  const observed = (): void => ownWrites.observed();
  return { onEvent: observed, onStateChange: observed, onSynced: observed };
}
