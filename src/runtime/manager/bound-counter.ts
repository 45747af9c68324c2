/**
 * A Prometheus counter for the reconcile hot path, the counterpart of bound-histogram.ts: `seriesFor(labels)`
 * returns the series of one label set, whose `inc` is one addition — no label validation or
 * hashing per call as prom-client's Counter does. It registers on a prom-client Registry and exports
 * exactly the text and JSON prom-client produces for its own counters.
 */
import type { Metric, Registry } from 'prom-client';
import { keepShape } from '../keep-shape.js';

export interface BoundCounterOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: Registry[];
}

/**
 * One label set's count. Hot paths hold the series and call `inc` (a prototype method: its compiled code
 * outlives the manager that made the series, where a closure per series would be compiled again for each).
 */
export class CounterSeries {
  value = 0;

  constructor(
    private readonly metric: string,
    readonly labels: Record<string, string>,
  ) {}

  /** Adds 1, or `amount` ≥ 0. */
  inc(amount = 1): void {
    if (!(amount >= 0)) throw new Error(`counter ${this.metric}: cannot increase by ${amount}`);
    this.value += amount;
  }
}

keepShape(new CounterSeries('', {}));

export class BoundCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];
  private readonly series = new Map<string, CounterSeries>();

  constructor(options: BoundCounterOptions) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** One increment for `labels` (looks the series up; prefer seriesFor() on hot paths). */
  inc(labels: Record<string, string>, amount = 1): void {
    this.seriesFor(labels).inc(amount);
  }

  reset(): void {
    for (const s of this.series.values()) s.value = 0;
  }

  /** The Registry's export (text and JSON), in prom-client's shape: one value per label set. */
  get(): { help: string; name: string; type: string; values: Array<{ value: number; labels: Record<string, string> }>; aggregator: string } {
    const values = [...this.series.values()].map((s) => ({ value: s.value, labels: s.labels }));
    return { help: this.help, name: this.name, type: this.type, values, aggregator: this.aggregator };
  }

  /** The series of one label set (made on first use), for hot paths: `series.inc()`. */
  seriesFor(labels: Record<string, string>): CounterSeries {
    for (const name of Object.keys(labels)) {
      if (!this.labelNames.includes(name)) throw new Error(`counter ${this.name}: unknown label "${name}" (labels: ${this.labelNames.join(', ')})`);
    }
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let series = this.series.get(key);
    if (!series) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) if (labels[n] !== undefined) own[n] = labels[n]!;
      series = new CounterSeries(this.name, own);
      this.series.set(key, series);
    }
    return series;
  }
}
