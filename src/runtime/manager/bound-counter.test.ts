/** BoundCounter exports exactly what prom-client's Counter exports for the same increments. */
import { Counter, Registry } from 'prom-client';
import { BoundCounter } from './bound-counter.js';

test('text and JSON exports match prom-client, bound or not', async () => {
  const reference = new Registry();
  const bound = new Registry();
  const options = { name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller', labelNames: ['controller', 'result'] };
  const promCounter = new Counter({ ...options, registers: [reference] });
  const boundCounter = new BoundCounter({ ...options, registers: [bound] });
  const success = boundCounter.seriesFor({ controller: 'c', result: 'success' });
  for (let i = 0; i < 3; i++) {
    success.inc();
    promCounter.inc({ controller: 'c', result: 'success' });
  }
  boundCounter.inc({ controller: 'c', result: 'error' }, 2);
  promCounter.inc({ controller: 'c', result: 'error' }, 2);
  const text = await bound.metrics();
  expect(text).toBe(await reference.metrics());
  expect(text).toContain('controller_runtime_reconcile_total{controller="c",result="success"} 3');
  expect(await bound.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
});

test('a negative increment and an unknown label are refused with the metric named', () => {
  const counter = new BoundCounter({ name: 'workqueue_adds_total', help: 'h', labelNames: ['name', 'controller'], registers: [] });
  expect(() => counter.seriesFor({ name: 'a', controller: 'a' }).inc(-1)).toThrow('counter workqueue_adds_total: cannot increase by -1');
  expect(() => counter.seriesFor({ kind: 'x' })).toThrow('counter workqueue_adds_total: unknown label "kind" (labels: name, controller)');
});
