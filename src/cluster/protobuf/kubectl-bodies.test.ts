/**
 * The protobuf bodies real kubectl 1.32 sent for its `create` subcommands (recorded by
 * scripts/capture-kubectl-protobuf-bodies.mjs) decode to the JSON the same command prints with
 * `--dry-run=client -o json` — the same object, marshalled by Go.
 */
import { readFileSync } from 'node:fs';
import { ProtobufBodyError, decodeKubernetesProtobuf } from './kubernetes-messages.js';

interface Fixture {
  name: string;
  command: string[];
  contentType: string;
  body: string;
  clientJson?: { apiVersion: string; kind: string };
}

const recorded = JSON.parse(readFileSync(new URL('./testdata/kubectl-create-bodies.json', import.meta.url), 'utf8')) as { kubectl: string; fixtures: Fixture[] };
const withClientJson = recorded.fixtures.filter((f) => f.clientJson);
const decode = (f: Fixture) => decodeKubernetesProtobuf(Buffer.from(f.body, 'base64'), { apiVersion: '', kind: '' });

test('the fixtures are kubectl 1.32 protobuf bodies', () => {
  expect(recorded.kubectl).toMatch(/^v1\.32\./);
  expect(withClientJson.length).toBeGreaterThanOrEqual(20);
  for (const f of recorded.fixtures) expect(f.contentType).toBe('application/vnd.kubernetes.protobuf');
});

test.each(withClientJson.map((f) => [f.name, f] as const))('kubectl create %s: the body decodes to the client-side JSON', (_name, f) => {
  expect(decode(f)).toEqual(f.clientJson);
});

const fixture = (name: string) => recorded.fixtures.find((f) => f.name === name)!;

test('kubectl create token: the TokenRequest carries the requested audiences and duration', () => {
  const f = fixture('token');
  expect(f.command).toEqual(expect.arrayContaining(['--duration=2h', '--audience=api', '--audience=vault']));
  expect(decode(f)).toEqual({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { creationTimestamp: null }, spec: { audiences: ['api', 'vault'], expirationSeconds: 7200, boundObjectRef: null }, status: { expirationTimestamp: null, token: '' } });
});

test('kubectl auth can-i and whoami: the reviews decode with their attributes', () => {
  expect(fixture('auth can-i').command).toEqual(['auth', 'can-i', 'list', 'pods', '--subresource=log', '-n', 'kube-system']);
  expect(decode(fixture('auth can-i'))).toMatchObject({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { namespace: 'kube-system', verb: 'list', resource: 'pods', subresource: 'log' } },
  });
  expect(decode(fixture('auth whoami'))).toEqual({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: { creationTimestamp: null }, status: { userInfo: {} } });
});

test('corrupted kubectl bodies decode or fail with a 400 message, never another error', () => {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let failures = 0;
  for (const f of recorded.fixtures) {
    const original = Buffer.from(f.body, 'base64');
    for (let round = 0; round < 150; round++) {
      const body = Buffer.from(original);
      for (let flips = 1 + Math.floor(next() * 3); flips > 0; flips--) body[4 + Math.floor(next() * (body.length - 4))] = Math.floor(next() * 256);
      const cut = round % 5 === 0 ? body.subarray(0, Math.floor(next() * body.length)) : body;
      try {
        decodeKubernetesProtobuf(cut, { apiVersion: '', kind: '' });
      } catch (err) {
        if (!(err instanceof ProtobufBodyError)) throw err;
        failures++;
      }
    }
  }
  expect(failures).toBeGreaterThan(100);
});
