/**
 * Deleting a CRD deletes its custom resources first. A delete that fails for any reason but NotFound is
 * reported as kube-apiserver's CRD finalizer reports it — Terminating=True, reason InstanceDeletionFailed,
 * "could not issue all deletes: …", the finalizer kept — and retried with backoff until it succeeds.
 */
import { ApiError } from '../errors/status-errors.js';
import { startLocalCluster, type LocalCluster } from '../local-cluster.js';
import { widgetCrd } from './testdata/widget-crd.js';

let cluster: LocalCluster;
afterEach(() => cluster?.stop());

async function call(method: string, path: string, body?: unknown): Promise<{ code: number; json: any }> {
  const res = await fetch(new URL(path, cluster.url), {
    method,
    headers: { Authorization: `Bearer ${cluster.adminToken}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { code: res.status, json: text ? JSON.parse(text) : undefined };
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';
const widgets = '/apis/example.com/v1/namespaces/default/widgets';

async function clusterWithWidgets(names: string[]): Promise<void> {
  cluster = await startLocalCluster({ tls: false, now: '2026-11-22T10:00:00Z', controllers: {} });
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...widgetCrd({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) };
  expect((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).code).toBe(201);
  await cluster.settle();
  for (const name of names) expect((await call('POST', widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name } })).code).toBe(201);
}

/** Makes the cluster's own deletes of `name` fail with `error` until the returned function is called. */
function failDeletesOf(name: string, error: () => Error): () => void {
  const operations = cluster.internals.operations;
  const original = operations.delete.bind(operations);
  operations.delete = (rt, namespace, objectName, options) => {
    if (rt.resource === 'widgets' && objectName === name) throw error();
    return original(rt, namespace, objectName, options);
  };
  return () => void (operations.delete = original);
}

const terminating = (crd: any) => crd.status.conditions.find((c: any) => c.type === 'Terminating');

test('a delete of a custom resource that fails (not NotFound) is reported on the CRD and retried with backoff', async () => {
  await clusterWithWidgets(['stuck', 'fine']);
  const heal = failDeletesOf('stuck', () => new ApiError(500, 'InternalError', 'Internal error occurred: etcdserver: request timed out'));
  expect((await call('DELETE', crdPath)).code).toBe(200);
  await cluster.settle();
  const failing = (await call('GET', crdPath)).json;
  expect(terminating(failing)).toMatchObject({ status: 'True', reason: 'InstanceDeletionFailed', message: 'could not issue all deletes: Internal error occurred: etcdserver: request timed out' });
  expect(failing.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
  expect((await call('GET', `${widgets}/fine`)).code).toBe(404);
  expect((await call('GET', `${widgets}/stuck`)).code).toBe(200);
  heal();
  await cluster.clock.advance(60_000);
  await cluster.settle();
  expect((await call('GET', `${widgets}/stuck`)).code).toBe(404);
  expect((await call('GET', crdPath)).code).toBe(404);
});

test('a NotFound from a delete is not a failure: the object is already gone', async () => {
  await clusterWithWidgets(['vanishing']);
  const operations = cluster.internals.operations;
  const original = operations.delete.bind(operations);
  operations.delete = (rt, namespace, name, options) => {
    if (rt.resource === 'widgets') {
      original(rt, namespace, name, options); // gone meanwhile (another client deleted it)
      throw new ApiError(404, 'NotFound', `widgets.example.com "${name}" not found`);
    }
    return original(rt, namespace, name, options);
  };
  expect((await call('DELETE', crdPath)).code).toBe(200);
  await cluster.settle();
  expect((await call('GET', crdPath)).code).toBe(404);
});
