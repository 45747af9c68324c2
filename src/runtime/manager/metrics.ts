/**
 * The manager's Prometheus metrics under controller-runtime's names (controller_runtime_reconcile_total,
 * …_reconcile_errors_total, …_reconcile_time_seconds, workqueue_*, leader_election_master_status) plus
 * kubeforge's informer health counters, on a per-manager prom-client registry.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { InformerMetrics } from '../cache/informer.js';
import type { ControllerMetrics } from '../controller/controller.js';
import type { WorkQueueMetrics } from '../queue/work-queue.js';
import { keepShape } from '../keep-shape.js';
import { BoundCounter, type CounterSeries } from './bound-counter.js';
import { BoundHistogram, type HistogramSeries } from './bound-histogram.js';

type ReconcileResult = Parameters<NonNullable<ControllerMetrics['reconciled']>>[1];

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60];
const queueBuckets = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000];

export class ManagerMetrics {
  readonly registry = new Registry();
  // Gauges that change on every queue operation are kept as plain numbers and copied into prom-client
  // when scraped (collect), so the hot path does no label hashing.
  /** Per controller, a holder the queue writes its depth into (no map write per add and take). */
  private readonly latestDepth = new Map<string, { value: number }>();
  /** Per controller: its reconcile-time series and its total counters by result (no string built per reconcile). */
  private readonly reconcileSeriesOf = new Map<string, ReconcileSeries>();
  /** Per controller, a holder of its busy worker count (one map read per change, no write). */
  private readonly workersInUse = new Map<string, { value: number }>();
  private readonly reconcileTotal = new BoundCounter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller', labelNames: ['controller', 'result'], registers: [this.registry] });
  private readonly reconcileErrors = new Counter({ name: 'controller_runtime_reconcile_errors_total', help: 'Total number of reconciliation errors per controller', labelNames: ['controller'], registers: [this.registry] });
  private readonly terminalErrors = new Counter({ name: 'controller_runtime_terminal_reconcile_errors_total', help: 'Total number of terminal reconciliation errors per controller', labelNames: ['controller'], registers: [this.registry] });
  private readonly timeouts = new Counter({ name: 'controller_runtime_reconcile_timeouts_total', help: 'Total number of reconciliations abandoned after the reconciliation timeout per controller', labelNames: ['controller'], registers: [this.registry] });
  private readonly panics = new Counter({ name: 'controller_runtime_reconcile_panics_total', help: 'Total number of reconciliation panics (programming errors thrown) per controller', labelNames: ['controller'], registers: [this.registry] });
  // The counters and histograms touched on every add and reconcile bind their label sets once
  // (bound-counter.ts, bound-histogram.ts): prom-client's label hashing was the runtime's largest cost per reconcile.
  private readonly reconcileTime = new BoundHistogram({ name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], buckets: latencyBuckets, registers: [this.registry] });
  private readonly maxConcurrent = new Gauge({ name: 'controller_runtime_max_concurrent_reconciles', help: 'Maximum number of concurrent reconciles per controller', labelNames: ['controller'], registers: [this.registry] });
  private readonly activeWorkers: Gauge = new Gauge({
    name: 'controller_runtime_active_workers',
    help: 'Number of currently used workers per controller',
    labelNames: ['controller'],
    registers: [this.registry],
    collect: () => {
      for (const [controller, n] of this.workersInUse) this.activeWorkers.set({ controller }, n.value);
    },
  });
  private readonly depth: Gauge = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames: ['name', 'controller'],
    registers: [this.registry],
    collect: () => {
      for (const [controller, d] of this.latestDepth) this.depth.set({ name: controller, controller }, d.value);
    },
  });
  private readonly adds = new BoundCounter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name', 'controller'], registers: [this.registry] });
  private readonly retries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name', 'controller'], registers: [this.registry] });
  private readonly queueDuration = new BoundHistogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name', 'controller'], buckets: queueBuckets, registers: [this.registry] });
  private readonly workDuration = new BoundHistogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes', labelNames: ['name', 'controller'], buckets: queueBuckets, registers: [this.registry] });
  private readonly leader = new Gauge({ name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master', labelNames: ['name'], registers: [this.registry] });
  private readonly stalls = new Counter({ name: 'kubeforge_informer_stalls_total', help: 'Watches dropped because no event or bookmark arrived in time', labelNames: ['kind'], registers: [this.registry] });
  private readonly relists = new Counter({ name: 'kubeforge_informer_relists_total', help: 'Relists after the watch history expired (410 Gone)', labelNames: ['kind'], registers: [this.registry] });
  private readonly watchRestarts = new Counter({ name: 'kubeforge_informer_watch_restarts_total', help: 'Watch reconnects after an error', labelNames: ['kind', 'reason'], registers: [this.registry] });

  readonly controller: ControllerMetrics = new ControllerHooks(this, this.workersInUse, this.reconcileSeriesOf, this.reconcileTime, this.reconcileTotal);

  readonly informer: InformerMetrics = {
    stalled: (kind) => this.stalls.inc({ kind }),
    relisted: (kind) => this.relists.inc({ kind }),
    watchRestarted: (kind, reason) => this.watchRestarts.inc({ kind, reason }),
  };

  reconcileError(controller: string, kind: 'error' | 'terminal' | 'panic'): void {
    if (kind === 'terminal') this.terminalErrors.inc({ controller });
    if (kind === 'panic') this.panics.inc({ controller });
    this.reconcileErrors.inc({ controller });
  }

  reconcileTimeout(controller: string): void {
    this.timeouts.inc({ controller });
  }

  setMaxConcurrent(controller: string, n: number): void {
    this.maxConcurrent.set({ controller }, n);
  }

  setLeader(name: string, isLeader: boolean): void {
    this.leader.set({ name }, isLeader ? 1 : 0);
  }

  /** One controller's queue metrics: its series, bound once. */
  queueMetrics(controller: string): WorkQueueMetrics {
    const labels = { name: controller, controller };
    let depth = this.latestDepth.get(controller);
    if (!depth) this.latestDepth.set(controller, (depth = { value: 0 }));
    return new QueueHooks(this.adds.seriesFor(labels), depth, this.queueDuration.seriesFor(labels), this.workDuration.seriesFor(labels), () => this.retries.inc(labels));
  }
}

// The hooks the queue and the workers call on every event are prototype methods of these classes, not
// closures made per manager: a closure's compiled code dies with its manager (and deoptimizes the queue
// and worker loop that inlined it), so a fresh manager would compile the hot path again. keepShape keeps
// their hidden classes alive between managers (keep-shape.ts).

/** One controller's reconcile time and its total per result (each result's series made on first use). */
class ReconcileSeries {
  private readonly time: HistogramSeries;
  private readonly total: Record<ReconcileResult, CounterSeries | undefined> = { success: undefined, error: undefined, requeue: undefined, requeue_after: undefined };

  constructor(
    private readonly controller: string,
    time: BoundHistogram,
    private readonly totals: BoundCounter,
  ) {
    this.time = time.seriesFor({ controller });
  }

  observe(result: ReconcileResult, seconds: number): void {
    (this.total[result] ??= this.totals.seriesFor({ controller: this.controller, result })).inc();
    this.time.observe(seconds);
  }
}

/**
 * ControllerMetrics on a ManagerMetrics. The per-reconcile hooks remember the last controller's holders: a
 * controller's workers call with its own name string, so a run of its calls costs a comparison, not a map read.
 */
class ControllerHooks implements ControllerMetrics {
  private lastController: string | undefined;
  private lastInUse: { value: number } | undefined;
  private lastSeriesController: string | undefined;
  private lastSeries: ReconcileSeries | undefined;

  constructor(
    private readonly metrics: ManagerMetrics,
    private readonly workersInUse: Map<string, { value: number }>,
    private readonly reconcileSeriesOf: Map<string, ReconcileSeries>,
    private readonly reconcileTime: BoundHistogram,
    private readonly reconcileTotal: BoundCounter,
  ) {}

  /** One reconcile's outcome: its result counted, its time observed. */
  reconciled(controller: string, result: ReconcileResult, seconds: number): void {
    let series = controller === this.lastSeriesController ? this.lastSeries : this.reconcileSeriesOf.get(controller);
    if (!series) this.reconcileSeriesOf.set(controller, (series = new ReconcileSeries(controller, this.reconcileTime, this.reconcileTotal)));
    this.lastSeriesController = controller;
    this.lastSeries = series;
    series.observe(result, seconds);
  }

  reconcileError(controller: string, kind: 'error' | 'terminal' | 'panic'): void {
    this.metrics.reconcileError(controller, kind);
  }

  reconcileTimeout(controller: string): void {
    this.metrics.reconcileTimeout(controller);
  }

  activeWorkers(controller: string, delta: number): void {
    let inUse = controller === this.lastController ? this.lastInUse : this.workersInUse.get(controller);
    if (inUse) inUse.value += delta;
    else this.workersInUse.set(controller, (inUse = { value: delta }));
    this.lastController = controller;
    this.lastInUse = inUse;
  }

  maxConcurrent(controller: string, n: number): void {
    this.metrics.setMaxConcurrent(controller, n);
  }

  queue(controller: string): WorkQueueMetrics {
    return this.metrics.queueMetrics(controller);
  }
}

/** One controller's WorkQueueMetrics: writes into its series (the depth gauge is copied out when scraped). */
class QueueHooks implements WorkQueueMetrics {
  constructor(
    private readonly adds: CounterSeries,
    private readonly latestDepth: { value: number },
    private readonly queueDuration: HistogramSeries,
    private readonly workDurations: HistogramSeries,
    private readonly retried: () => void,
  ) {}

  add(): void {
    this.adds.inc();
  }

  depth(depth: number): void {
    this.latestDepth.value = depth;
  }

  retry(): void {
    this.retried();
  }

  queueLatency(seconds: number): void {
    this.queueDuration.observe(seconds);
  }

  workDuration(seconds: number): void {
    this.workDurations.observe(seconds);
  }
}

const unregistered = { name: '', help: '', labelNames: ['controller'], registers: [] };
const keptHistogram = keepShape(new BoundHistogram({ ...unregistered, buckets: [] }));
const keptCounter = keepShape(new BoundCounter(unregistered));
keepShape(new ReconcileSeries('', keptHistogram, keptCounter));
keepShape(new ControllerHooks(undefined as never, new Map(), new Map(), keptHistogram, keptCounter));
keepShape(new QueueHooks(undefined as never, { value: 0 }, undefined as never, undefined as never, () => undefined));
