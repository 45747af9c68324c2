/** BoundHistogram exports exactly what prom-client's Histogram exports for the same observations. */
import { Histogram, Registry } from 'prom-client';
import { BoundHistogram, type HistogramSeries } from './bound-histogram.js';

const buckets = [0.001, 0.01, 0.1, 1];
const observations: Array<[Record<string, string>, number]> = [
  [{ name: 'a', controller: 'a' }, 0.0005],
  [{ name: 'a', controller: 'a' }, 0.001], // on a bound: counted in that bucket (le is inclusive)
  [{ name: 'a', controller: 'a' }, 0.05],
  [{ name: 'a', controller: 'a' }, 7], // above every bound: only +Inf
  [{ name: 'b', controller: 'b' }, 0.02],
];

function both() {
  const reference = new Registry();
  const bound = new Registry();
  const options = { name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name', 'controller'], buckets };
  return {
    promHistogram: new Histogram({ ...options, registers: [reference] }),
    boundHistogram: new BoundHistogram({ ...options, registers: [bound] }),
    reference,
    bound,
  };
}

test('text and JSON exports match prom-client for bound and unbound observations', async () => {
  const { promHistogram, boundHistogram, reference, bound } = both();
  const observers = new Map<string, HistogramSeries>();
  for (const [labels, value] of observations) {
    promHistogram.observe(labels, value);
    const key = labels.name!;
    if (!observers.has(key)) observers.set(key, boundHistogram.seriesFor(labels));
    observers.get(key)!.observe(value);
  }
  boundHistogram.observe({ name: 'b', controller: 'b' }, 0.2);
  promHistogram.observe({ name: 'b', controller: 'b' }, 0.2);
  const text = await bound.metrics();
  expect(text).toBe(await reference.metrics());
  expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="0.001",name="a",controller="a"} 2');
  expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="+Inf",name="a",controller="a"} 4');
  expect(await bound.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
});

test('unknown labels and decreasing buckets are refused with the metric named', () => {
  const { boundHistogram } = both();
  expect(() => boundHistogram.seriesFor({ kind: 'x' })).toThrow('histogram workqueue_queue_duration_seconds: unknown label "kind" (labels: name, controller)');
  expect(() => new BoundHistogram({ name: 'h', help: 'h', labelNames: [], buckets: [1, 0.5], registers: [] })).toThrow('histogram h: buckets must increase');
});

test('reset zeroes every series but keeps bound observers working', async () => {
  const { boundHistogram, bound } = both();
  const series = boundHistogram.seriesFor({ name: 'a', controller: 'a' });
  series.observe(0.5);
  boundHistogram.reset();
  series.observe(0.05);
  const text = await bound.metrics();
  expect(text).toContain('workqueue_queue_duration_seconds_count{name="a",controller="a"} 1');
  expect(text).toContain('workqueue_queue_duration_seconds_sum{name="a",controller="a"} 0.05');
});
