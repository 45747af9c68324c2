/**
 * A request or watch opening that fails before an answer (the server is gone: connection refused) leaves no
 * deadline timer behind. A watch retried with backoff through an outage opens hundreds of times; each
 * deadline left pending would hold memory and keep the process alive for the request timeout (60 s).
 */
import { createServer } from 'node:net';
import { ManualClock } from '../../testing/manual-clock.js';
import { Kubeconfig } from './kubeconfig.js';
import { Transport } from './transport.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function kubeconfigFor(server: string): Kubeconfig {
  return Kubeconfig.fromString(
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{ name: gone, cluster: { server: "' + server + '" } }]',
      'users: [{ name: nobody, user: {} }]',
      'contexts: [{ name: gone, context: { cluster: gone, user: nobody } }]',
      'current-context: gone',
    ].join('\n'),
  );
}

test('a refused watch opening and a refused request each cancel their deadline', async () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const transport = new Transport(kubeconfigFor(`http://127.0.0.1:${await closedPort()}`), { requestTimeoutMs: 60_000, timeoutClock: clock });
  try {
    await expect(transport.stream('/api/v1/configmaps', { watch: 'true' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(clock.timers()).toEqual([]); // was: one timer 60 s ahead per failed opening
    await expect(transport.request('GET', '/api/v1/configmaps')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(clock.timers()).toEqual([]);
  } finally {
    transport.close();
  }
});
