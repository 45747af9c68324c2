/**
 * generateName as 1.32's registry does it (RetryGenerateName, on by default): a create whose generated
 * name is taken is retried with a new name (up to 8 attempts), so clients never see the 409 that five
 * random characters give about once in 2 000 creates at 20 000 objects.
 */
import { Agent, request as httpRequest } from 'node:http';
import { useClusterSuite } from './cluster-suite.js';

// Plain HTTP: what is tested is the registry's retry, not 20 000 TLS round trips (about 1.3 CPU-s of them,
// both ends in this process); every other file talks TLS.
const suite = useClusterSuite({ seed: 1, tls: false });

test('20 000 creates with generateName: every one succeeds, every name is distinct', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const create = (i: number): Promise<{ code: number; name: string }> =>
    new Promise((resolve, reject) => {
      const options = { ...suite.adminRequestOptions('/api/v1/namespaces/default/configmaps', 'POST', { 'Content-Type': 'application/json' }), agent };
      const req = httpRequest(options, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, name: JSON.parse(text).metadata?.name ?? JSON.parse(text).message }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ metadata: { generateName: 'churn-', labels: { i: String(i) } } }));
    });
  const codes = new Map<number, number>();
  const names = new Set<string>();
  const total = 20_000;
  let next = 0;
  // counts the suffixes drawn: more draws than creates means some generated names were taken and drawn again
  const random = suite.cluster.internals.random;
  const original = random.nameSuffix.bind(random);
  let draws = 0;
  random.nameSuffix = () => {
    draws++;
    return original();
  };
  try {
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < total) {
          const r = await create(next++);
          codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
          if (r.code === 201) names.add(r.name);
        }
      }),
    );
  } finally {
    random.nameSuffix = original;
    agent.destroy();
  }
  expect(Object.fromEntries(codes)).toEqual({ 201: total });
  expect(names.size).toBe(total);
  expect(draws).toBeGreaterThan(total);
}, 300_000);

test('a taken generated name is generated again; after 8 taken names the 409 is answered', async () => {
  const cms = '/api/v1/namespaces/default/configmaps';
  expect((await suite.call('POST', cms, { metadata: { name: 'fixed-zzzzz' } })).code).toBe(201);
  const random = suite.cluster.internals.random;
  const original = random.nameSuffix.bind(random);
  const draws: string[] = [];
  try {
    const suffixes = ['zzzzz', 'zzzzz', 'bcdfg'];
    random.nameSuffix = () => {
      const s = suffixes.shift() ?? 'zzzzz';
      draws.push(s);
      return s;
    };
    const retried = await suite.call('POST', cms, { metadata: { generateName: 'fixed-' } });
    expect(retried.code).toBe(201);
    expect(JSON.parse(retried.text).metadata.name).toBe('fixed-bcdfg');
    expect(draws).toEqual(['zzzzz', 'zzzzz', 'bcdfg']);
    draws.length = 0;
    const exhausted = await suite.call('POST', cms, { metadata: { generateName: 'fixed-' } });
    expect(exhausted.code).toBe(409);
    expect(JSON.parse(exhausted.text)).toMatchObject({ reason: 'AlreadyExists', message: 'configmaps "fixed-zzzzz" already exists' });
    expect(draws).toHaveLength(8);
  } finally {
    random.nameSuffix = original;
  }
});
