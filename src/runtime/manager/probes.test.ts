/** The /healthz, /readyz and /metrics endpoints. */
import { Registry, Counter } from 'prom-client';
import { ProbeServer } from './probes.js';

describe('ProbeServer', () => {
  test('/healthz, /readyz and /metrics answer as controller-runtime does', async () => {
    let synced = false;
    const registry = new Registry();
    new Counter({ name: 'controller_runtime_reconcile_total', help: 'x', labelNames: ['controller', 'result'], registers: [registry] }).inc({ controller: 'c', result: 'success' });
    const server = new ProbeServer({ port: 0, healthChecks: { ping: () => true }, readyChecks: { informers: () => synced || 'caches not synced' }, metrics: registry });
    const port = await server.start();
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      return { status: res.status, text: await res.text() };
    };
    expect(await get('/healthz')).toEqual({ status: 200, text: '[+]ping ok\nhealthz check passed\n' });
    expect(await get('/readyz')).toEqual({ status: 500, text: '[-]informers failed: caches not synced\nreadyz check failed\n' });
    synced = true;
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/metrics')).text).toContain('controller_runtime_reconcile_total{controller="c",result="success"} 1');
    expect((await get('/nope')).status).toBe(404);
    await server.stop();
  });
});
