/**
 * generateName as 1.32's registry does it (RetryGenerateName, on by default): a create whose generated
 * name is taken is retried with a new name (up to 8 attempts), so clients never see the 409 that five
 * random characters give about once in 2 000 creates at 20 000 objects.
 */
import { ApiError } from '../../src/cluster/index.js';
import { useClusterSuite } from './cluster-suite.js';

// plain HTTP: the second test's few requests test the registry's answers, not TLS
const suite = useClusterSuite({ seed: 1, tls: false });

// The 20 000 creates call the registry's create in-process, the call the HTTP create handler ends in (its
// WriteResult's code is the status the handler answers, an ApiError's code the error's): what is tested is the
// registry's retry, and over HTTP the same creates cost about 5 CPU-s more (both ends in this process). The next
// test proves the retry over HTTP: a retried create answered 201, an exhausted one 409.
test('20 000 creates with generateName: every one succeeds, every name is distinct', () => {
  const { operations, catalog, random } = suite.cluster.internals;
  const configMaps = catalog.find('', 'v1', 'configmaps')!;
  const create = (i: number): { code: number; name: string } => {
    try {
      const { code, object } = operations.create(configMaps, 'default', { metadata: { generateName: 'churn-', labels: { i: String(i) } } }, { fieldManager: 'test' });
      return { code, name: object.metadata.name ?? '' };
    } catch (err) {
      if (err instanceof ApiError) return { code: err.code, name: err.message };
      throw err;
    }
  };
  const codes = new Map<number, number>();
  const names = new Set<string>();
  const total = 20_000;
  // counts the suffixes drawn: more draws than creates means some generated names were taken and drawn again
  const original = random.nameSuffix.bind(random);
  let draws = 0;
  random.nameSuffix = () => {
    draws++;
    return original();
  };
  try {
    for (let i = 0; i < total; i++) {
      const r = create(i);
      codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
      if (r.code === 201) names.add(r.name);
    }
  } finally {
    random.nameSuffix = original;
  }
  expect(Object.fromEntries(codes)).toEqual({ 201: total });
  expect(names.size).toBe(total);
  expect(draws).toBeGreaterThan(total);
});

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
