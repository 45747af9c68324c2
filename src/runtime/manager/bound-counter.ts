/**
 * A Prometheus counter for the reconcile hot path, the counterpart of bound-histogram.ts: `bind(labels)`
 * returns an incrementer for one label set, so an increment is one addition — no label validation or
 * hashing per call as prom-client's Counter does. It registers on a prom-client Registry and exports
 * exactly the text and JSON prom-client produces for its own counters.
 */
import type { Metric, Registry } from 'prom-client';

export interface BoundCounterOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: Registry[];
}

interface Series {
  labels: Record<string, string>;
  value: number;
}

export class BoundCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];
  private readonly series = new Map<string, Series>();

  constructor(options: BoundCounterOptions) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** An incrementer for one label set (by 1, or by `amount` ≥ 0). */
  bind(labels: Record<string, string>): (amount?: number) => void {
    const series = this.seriesFor(labels);
    return (amount = 1): void => {
      if (!(amount >= 0)) throw new Error(`counter ${this.name}: cannot increase by ${amount}`);
      series.value += amount;
    };
  }

  /** One increment for `labels` (looks the series up; prefer bind() on hot paths). */
  inc(labels: Record<string, string>, amount = 1): void {
    this.bind(labels)(amount);
  }

  reset(): void {
    for (const s of this.series.values()) s.value = 0;
  }

  /** The Registry's export (text and JSON), in prom-client's shape: one value per label set. */
  get(): { help: string; name: string; type: string; values: Array<{ value: number; labels: Record<string, string> }>; aggregator: string } {
    const values = [...this.series.values()].map((s) => ({ value: s.value, labels: s.labels }));
    return { help: this.help, name: this.name, type: this.type, values, aggregator: this.aggregator };
  }

  private seriesFor(labels: Record<string, string>): Series {
    for (const name of Object.keys(labels)) {
      if (!this.labelNames.includes(name)) throw new Error(`counter ${this.name}: unknown label "${name}" (labels: ${this.labelNames.join(', ')})`);
    }
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let series = this.series.get(key);
    if (!series) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) if (labels[n] !== undefined) own[n] = labels[n]!;
      series = { labels: own, value: 0 };
      this.series.set(key, series);
    }
    return series;
  }
}
