/**
 * Size limits as kube-apiserver 1.32 with etcd's defaults: a request body over 3 MiB is 413 (a Status,
 * never a connection reset), ConfigMap and Secret data over 1 MiB is 422, and an object over etcd's
 * 1.5 MiB request limit is refused with the error a real server passes on from etcd.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const cms = '/api/v1/namespaces/default/configmaps';
const MiB = 1024 * 1024;
const files = mkdtempSync(join(tmpdir(), 'kubeforge-size-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

const tooLarge = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 };

test('a 20 MiB body gets a 413 Status, not a connection reset', async () => {
  const body = JSON.stringify({ metadata: { name: 'huge' }, data: { blob: 'x'.repeat(20 * MiB) } });
  const r = await suite.call('POST', cms, body);
  expect(r.code).toBe(413);
  expect(JSON.parse(r.text)).toEqual(tooLarge);
  expect((await suite.call('GET', `${cms}/huge`)).code).toBe(404);
});

test('a 3.5 MiB ConfigMap is over the 3 MiB body limit: 413 before any validation', async () => {
  const r = await suite.call('POST', cms, { metadata: { name: 'three-and-a-half' }, data: { blob: 'x'.repeat(3.5 * MiB) } });
  expect(r.code).toBe(413);
  expect(JSON.parse(r.text)).toEqual(tooLarge);
});

test('a body just under 3 MiB is read (and judged on its content)', async () => {
  const r = await suite.call('POST', cms, { metadata: { name: 'under-three' }, data: { blob: 'x'.repeat(3 * MiB - 200) } });
  expect(r.code).toBe(422);
});

test('kubectl: ConfigMap data over 1 MiB is 422 "[]: Too long"', async () => {
  const file = join(files, 'blob.txt');
  writeFileSync(file, 'y'.repeat(MiB + 1));
  const r = await suite.kubectl.run(['create', 'configmap', 'big', `--from-file=${file}`]);
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('error: failed to create configmap: ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes');
  const raw = await suite.call('POST', cms, { metadata: { name: 'big' }, data: { a: 'y'.repeat(MiB / 2), b: 'y'.repeat(MiB / 2 + 1) } });
  expect(raw.code).toBe(422);
  expect(JSON.parse(raw.text).details).toEqual({ name: 'big', kind: 'ConfigMap', causes: [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' }] });
  const exactly = await suite.call('POST', cms, { metadata: { name: 'exactly-one-mib' }, binaryData: { a: Buffer.alloc(MiB / 2).toString('base64') }, data: { b: 'y'.repeat(MiB / 2) } });
  expect(exactly.code).toBe(201);
});

test('kubectl: Secret data over 1 MiB (decoded bytes, stringData too) is 422 "data: Too long"', async () => {
  const file = join(files, 'secret.bin');
  writeFileSync(file, Buffer.alloc(MiB + 1, 7));
  const r = await suite.kubectl.run(['create', 'secret', 'generic', 'big', `--from-file=${file}`]);
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('error: failed to create secret Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes');
  const viaStringData = await suite.call('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 'big2' }, stringData: { a: 'z'.repeat(MiB), b: 'z' } });
  expect(viaStringData.code).toBe(422);
  expect(JSON.parse(viaStringData.text).message).toBe('Secret "big2" is invalid: data: Too long: may not be more than 1048576 bytes');
});

test('kubectl: a 2 MiB custom resource is over etcd\'s 1.5 MiB request limit: 500 "etcdserver: request is too large"', async () => {
  await suite.kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'blobs.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'blobs', singular: 'blob', kind: 'Blob' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  }));
  await suite.kubectl.ok(['wait', '--for=condition=Established', 'crd/blobs.example.com', '--timeout=10s']);
  const file = join(files, 'blob.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'big' }, spec: { data: 'q'.repeat(2 * MiB) } }));
  const r = await suite.kubectl.run(['create', '-f', file]);
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('Error from server: error when creating "' + file + '": etcdserver: request is too large');
  const raw = await suite.call('POST', '/apis/example.com/v1/namespaces/default/blobs', { apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'big' }, spec: { data: 'q'.repeat(2 * MiB) } });
  expect(raw.code).toBe(500);
  expect(JSON.parse(raw.text)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request is too large', code: 500 });
  const small = await suite.call('POST', '/apis/example.com/v1/namespaces/default/blobs', { apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'small' }, spec: { data: 'q'.repeat(MiB) } });
  expect(small.code).toBe(201);
  const grown = await suite.call('PATCH', '/apis/example.com/v1/namespaces/default/blobs/small', { spec: { more: 'q'.repeat(MiB) } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(grown.code).toBe(500);
  expect(JSON.parse(grown.text).message).toBe('etcdserver: request is too large');
});

test('a 100 MiB body streamed in pieces gets its 413 too, and the next request is served', async () => {
  const chunk = Buffer.alloc(MiB, 0x61);
  const { request: httpsRequest } = await import('node:https');
  const reply = await new Promise<{ code: number; text: string }>((resolve, reject) => {
    const req = httpsRequest(suite.adminRequestOptions(cms, 'POST', { 'Content-Type': 'application/json' }), (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, text }));
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    let sent = 0;
    const pump = (): void => {
      while (sent < 100) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
  expect(reply.code).toBe(413);
  expect(JSON.parse(reply.text)).toEqual(tooLarge);
  expect((await suite.call('GET', cms)).code).toBe(200);
});
