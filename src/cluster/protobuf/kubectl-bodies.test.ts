/**
 * The protobuf bodies real kubectl 1.32 sent for its `create` subcommands (recorded by
 * scripts/capture-kubectl-protobuf-bodies.mjs) decode to the JSON the same command prints with
 * `--dry-run=client -o json` — the same object, marshalled by Go.
 */
import { readFileSync } from 'node:fs';
import { decodeKubernetesProtobuf } from './kubernetes-messages.js';

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
