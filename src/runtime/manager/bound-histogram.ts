/**
 * A Prometheus histogram for the reconcile hot path: the series of one label set is looked up once
 * (`seriesFor(labels)`), so an observation is a bucket search and three additions — no label validation
 * or hashing per call as prom-client's Histogram does (it was the largest runtime cost per reconcile).
 * It registers on a prom-client Registry and is exported in exactly the text and JSON prom-client
 * produces for its own histograms.
 */
import type { Metric, Registry } from 'prom-client';
import { keepShape } from '../keep-shape.js';

export interface BoundHistogramOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  /** Upper bounds, increasing; `+Inf` is implied. */
  buckets: readonly number[];
  registers: Registry[];
}

/**
 * One label set's observations. Hot paths hold the series and call `observe` (a prototype method: its
 * compiled code outlives the manager that made the series, where a closure per series would be compiled again for each).
 */
export class HistogramSeries {
  /** Per-bucket counts (not cumulative); the last slot counts values above every bound. */
  readonly counts: Float64Array;
  /** The sum of observations, in a typed array: a double in an object field would be boxed anew per observation. */
  readonly sum = new Float64Array(1);
  count = 0;

  constructor(
    private readonly bounds: Float64Array,
    readonly labels: Record<string, string>,
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** One observation (a value that is not finite is ignored). */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum[0]! += value;
    this.count++;
  }
}

keepShape(new HistogramSeries(new Float64Array(0), {}));

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  /** Bucket lines carry `exemplar: null` as prom-client's do (exemplars are not kept). */
  exemplar?: null;
}

export class BoundHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];
  private readonly bounds: Float64Array;
  private readonly series = new Map<string, HistogramSeries>();

  constructor(options: BoundHistogramOptions) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    for (let i = 1; i < options.buckets.length; i++) {
      if (!(options.buckets[i]! > options.buckets[i - 1]!)) throw new Error(`histogram ${options.name}: buckets must increase`);
    }
    this.bounds = Float64Array.from(options.buckets);
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** One observation for `labels` (looks the series up; prefer seriesFor() on hot paths). */
  observe(labels: Record<string, string>, value: number): void {
    this.seriesFor(labels).observe(value);
  }

  reset(): void {
    for (const s of this.series.values()) {
      s.counts.fill(0);
      s.sum[0] = 0;
      s.count = 0;
    }
  }

  /** The Registry's text export: bucket lines carry `le` first, then the series labels (as prom-client). */
  getForPromString(): { name: string; help: string; type: string; aggregator: string; values: ExportedValue[] } {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += s.counts[i]!;
        values.push({ labels: { le: this.bounds[i]! }, sharedLabels: s.labels, value: cumulative, metricName: bucketName, exemplar: null });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucketName, exemplar: null });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum[0]!, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The Registry's JSON export: each value's labels merged (series labels, then `le`). */
  get(): { name: string; help: string; type: string; aggregator: string; values: ExportedValue[] } {
    const data = this.getForPromString();
    data.values = data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...sharedLabels, ...labels } }));
    return data;
  }

  /** The series of one label set (made on first use), for hot paths: `series.observe(seconds)`. */
  seriesFor(labels: Record<string, string>): HistogramSeries {
    for (const name of Object.keys(labels)) {
      if (!this.labelNames.includes(name)) throw new Error(`histogram ${this.name}: unknown label "${name}" (labels: ${this.labelNames.join(', ')})`);
    }
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let series = this.series.get(key);
    if (!series) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) if (labels[n] !== undefined) own[n] = labels[n]!;
      series = new HistogramSeries(this.bounds, own);
      this.series.set(key, series);
    }
    return series;
  }
}
