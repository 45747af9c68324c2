/** The /healthz and /readyz endpoints; metrics are not served here (metrics-server.cluster.test.ts). */
import { ProbeServer } from './probes.js';

describe('ProbeServer', () => {
  test('/healthz and /readyz answer as controller-runtime does, /metrics is not on the probe port', async () => {
    let synced = false;
    const server = new ProbeServer({ port: 0, healthChecks: { ping: () => true }, readyChecks: { informers: () => synced || 'caches not synced' } });
    const port = await server.start();
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      return { status: res.status, text: await res.text() };
    };
    expect(await get('/healthz')).toEqual({ status: 200, text: '[+]ping ok\nhealthz check passed\n' });
    expect(await get('/readyz')).toEqual({ status: 500, text: '[-]informers failed: caches not synced\nreadyz check failed\n' });
    synced = true;
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/metrics')).status).toBe(404);
    expect((await get('/nope')).status).toBe(404);
    await server.stop();
  });

  test('listens on loopback by default, on every interface for host ""', async () => {
    const loopback = new ProbeServer({ port: 0, healthChecks: {}, readyChecks: {} });
    const everywhere = new ProbeServer({ port: 0, host: '', healthChecks: {}, readyChecks: {} });
    await loopback.start();
    const port = await everywhere.start();
    expect(loopback.address()?.address).toBe('127.0.0.1');
    expect(['::', '0.0.0.0']).toContain(everywhere.address()?.address);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    await loopback.stop();
    await everywhere.stop();
  });
});
