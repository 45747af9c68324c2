/**
 * CRDs that convert through a webhook (`conversion.strategy: Webhook`), through real kubectl and the
 * runtime's client: a CronTab stored as v1 (schedule "m h dom mon dow") and served as v2 too (schedule
 * as a struct, the Kubebuilder book's CronJob v2), converted by a small HTTPS webhook written here.
 * Every request in the other version goes through the ConversionReview exchange; the webhook's failures
 * give kube-apiserver 1.32's error texts; storedVersions and storage migration as the real server and
 * kube-storage-version-migrator keep them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { jest } from '@jest/globals';
import { generateServingCertificates } from '../../src/cluster/tls/certificates.js';
import { Client } from '../../src/runtime/client/client.js';
import { KindRegistry } from '../../src/runtime/client/kinds.js';
import { Transport } from '../../src/runtime/client/transport.js';
import { Informer } from '../../src/runtime/cache/informer.js';
import { main } from '../../src/cli/main.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ conversionWebhookTimeoutSeconds: 1 });
const kubectl = suite.kubectl;
const group = 'stable.example.com';
const crdName = `crontabs.${group}`;
let webhookServer: Server;
let caBundle: string;
let port: number;
/** What the webhook does with the next reviews. */
let mode = 'convert';
const reviews: Array<Record<string, any>> = [];
const admissionReviews: Array<Record<string, any>> = [];

const fields = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;

/** The test's conversion: v1's schedule string ⇄ v2's schedule struct; everything else is carried over. */
function convert(object: any, desired: string): any {
  const out = structuredClone(object);
  out.apiVersion = desired;
  if (desired.endsWith('/v2') && typeof object.spec?.schedule === 'string') {
    const parts = object.spec.schedule.split(' ');
    out.spec.schedule = Object.fromEntries(fields.map((f, i) => [f, parts[i] ?? '*']));
  } else if (desired.endsWith('/v1') && object.spec?.schedule && typeof object.spec.schedule === 'object') {
    out.spec.schedule = fields.map((f) => object.spec.schedule[f] ?? '*').join(' ');
  }
  return out;
}

function answer(request: any): unknown {
  const converted = request.objects.map((o: any) => convert(o, request.desiredAPIVersion));
  const ok = { uid: request.uid, result: { status: 'Success' }, convertedObjects: converted };
  switch (mode) {
    case 'wrong-uid':
      return { ...ok, uid: 'not-the-request-uid' };
    case 'two-objects':
      return { ...ok, convertedObjects: [...converted, ...converted] };
    case 'wrong-version':
      return { ...ok, convertedObjects: converted.map((o: any) => ({ ...o, apiVersion: `${group}/v3` })) };
    case 'renamed':
      return { ...ok, convertedObjects: converted.map((o: any) => ({ ...o, metadata: { ...o.metadata, name: 'other' } })) };
    case 'refuse':
      return { uid: request.uid, result: { status: 'Failure', message: 'schedule cannot be converted' } };
    default:
      return ok;
  }
}

beforeAll(async () => {
  const certs = await generateServingCertificates();
  caBundle = Buffer.from(certs.caCertPem).toString('base64');
  webhookServer = createServer({ cert: certs.serverCertPem, key: certs.serverKeyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const review = JSON.parse(text);
      if (req.url?.startsWith('/admit')) {
        admissionReviews.push(review.request);
        // the mutating webhook sets the hour in v1's string form
        const patch = [{ op: 'replace', path: '/spec/schedule', value: String(review.request.object.spec.schedule).replace(/^(\S+) \S+/, '$1 6') }];
        const response = req.url.startsWith('/admit/mutate') ? { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } : { uid: review.request.uid, allowed: true };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      }
      reviews.push(review);
      if (mode === 'slow') return void setTimeout(() => res.destroyed || res.end(), 3000).unref();
      if (mode === 'http-500') {
        res.writeHead(500);
        return void res.end('boom');
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: answer(review.request) }));
    });
  });
  await new Promise<void>((r) => webhookServer.listen(0, '127.0.0.1', () => r()));
  port = (webhookServer.address() as AddressInfo).port;
  await kubectl.ok(['create', '-f', '-'], JSON.stringify(crontabCrd({ url: `https://127.0.0.1:${port}/convert`, caBundle })));
  await suite.until('the CRD to be served', async () => (await kubectl.run(['get', `crontabs.v2.${group}`])).code === 0);
});

afterEach(() => {
  mode = 'convert';
});

afterAll(async () => {
  webhookServer.closeAllConnections();
  await new Promise((r) => webhookServer.close(r));
});

function versionSchema(schedule: Record<string, unknown>): Record<string, unknown> {
  return {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { schedule, replicas: { type: 'integer' } } }, status: { type: 'object', properties: { active: { type: 'integer' } } } },
    },
  };
}

function crontabCrd(clientConfig: Record<string, unknown>, name = 'crontabs', kind = 'CronTab'): Record<string, unknown> {
  const struct = { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) };
  const subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.active' } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: name, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        { name: 'v1', served: true, storage: true, schema: versionSchema({ type: 'string' }), subresources },
        { name: 'v2', served: true, storage: false, schema: versionSchema(struct), subresources },
      ],
      conversion: { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: ['v1'] } },
    },
  };
}

const v1 = (name: string, schedule: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name, ...extra }, spec: { schedule, replicas: 1 } });

/**
 * `kubectl get <args> --watch --output-watch-events -o json` running in the background: the events it
 * prints, parsed as they come; `stop()` ends it.
 */
function kubectlWatch(args: string[]): { objects: any[]; stop(): void } {
  const home = mkdtempSync(join(tmpdir(), 'kubeforge-kubectl-watch-'));
  const child = spawn('kubectl', ['--kubeconfig', suite.cluster.kubeconfigPath, 'get', ...args, '--watch', '--output-watch-events', '-o', 'json'], {
    env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: join(home, 'cache') },
  });
  const objects: any[] = [];
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    // with --output-watch-events kubectl prints one compact JSON event per line
    let end: number;
    while ((end = text.indexOf('\n')) >= 0) {
      objects.push(JSON.parse(text.slice(0, end)));
      text = text.slice(end + 1);
    }
  });
  return {
    objects,
    stop: () => {
      child.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const stored = (name: string): any => suite.cluster.internals.store.get(crdName, 'default', name);

describe('CRD validation of spec.conversion', () => {
  const create = (conversion: unknown) => kubectl.run(['create', '-f', '-'], JSON.stringify({ ...crontabCrd({}, 'bads', 'Bad'), spec: { ...(crontabCrd({}, 'bads', 'Bad').spec as object), conversion } }));

  test('a Webhook strategy without a webhook names the client config and the review versions', async () => {
    const r = await create({ strategy: 'Webhook' });
    expect(r.stderr).toContain(`The CustomResourceDefinition "bads.${group}" is invalid:`);
    expect(r.stderr).toContain('spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook');
    expect(r.stderr).toContain('spec.conversion.conversionReviewVersions: Required value');
  });

  test('a client config with both url and service, an http URL, unknown review versions', async () => {
    const both = await create({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://x.example.com', service: { name: 's', namespace: 'n' } }, conversionReviewVersions: ['v1'] } });
    expect(both.stderr).toContain('spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required');
    const http = await create({ strategy: 'Webhook', webhook: { clientConfig: { url: 'http://x.example.com/convert' }, conversionReviewVersions: ['v9'] } });
    expect(http.stderr).toContain(`spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme`);
    expect(http.stderr).toContain('spec.conversion.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1');
    const service = await create({ strategy: 'Webhook', webhook: { clientConfig: { service: { name: 's', namespace: '', path: 'convert', port: 70000 } }, conversionReviewVersions: ['v1'] } });
    expect(service.stderr).toContain('spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required');
    expect(service.stderr).toContain(`spec.conversion.webhookClientConfig.service.path: Invalid value: "convert": must start with a '/'`);
    expect(service.stderr).toContain('spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive');
  });

  test('the None strategy takes no webhook; the strategy must be None or Webhook', async () => {
    const none = await create({ strategy: 'None', webhook: { clientConfig: { url: 'https://x.example.com' }, conversionReviewVersions: ['v1'] } });
    expect(none.stderr).toContain('spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook');
    expect(none.stderr).toContain('spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook');
    const other = await create({ strategy: 'Magic' });
    expect(other.stderr).toContain('spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"');
    expect((await kubectl.run(['get', 'crd', `bads.${group}`])).code).toBe(1);
  });
});

describe('requests in the other version go through the ConversionReview exchange', () => {
  test('created as v1, read as v2 with kubectl: the review carries uid, desiredAPIVersion and the stored object', async () => {
    await kubectl.ok(['create', '-f', '-'], v1('every-five', '*/5 * * * *'));
    reviews.length = 0;
    const got = JSON.parse(await kubectl.ok(['get', `crontabs.v2.${group}`, 'every-five', '-o', 'json']));
    expect(got.apiVersion).toBe(`${group}/v2`);
    expect(got.spec.schedule).toEqual({ minute: '*/5', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' });
    expect(reviews.length).toBeGreaterThan(0);
    const review = reviews[0]!;
    expect(review).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: `${group}/v2` } });
    expect(review.request.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(review.request.objects).toHaveLength(1);
    expect(review.request.objects[0]).toMatchObject({ apiVersion: `${group}/v1`, metadata: { name: 'every-five' }, spec: { schedule: '*/5 * * * *' } });
  });

  test('reading in the storage version calls no webhook', async () => {
    reviews.length = 0;
    expect(JSON.parse(await kubectl.ok(['get', `crontabs.v1.${group}`, 'every-five', '-o', 'json'])).spec.schedule).toBe('*/5 * * * *');
    expect(reviews).toHaveLength(0);
  });

  test('created as v2, stored as v1, listed in both versions (table and JSON)', async () => {
    const body = { apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'hourly' }, spec: { schedule: { minute: '0', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' }, replicas: 2 } };
    const created = JSON.parse(await kubectl.ok(['create', '-f', '-', '-o', 'json'], JSON.stringify(body)));
    expect(created.apiVersion).toBe(`${group}/v2`);
    expect(created.spec.schedule.minute).toBe('0');
    expect(stored('hourly')).toMatchObject({ apiVersion: `${group}/v1`, spec: { schedule: '0 * * * *', replicas: 2 } });
    const listed = JSON.parse(await kubectl.ok(['get', `crontabs.v2.${group}`, '-o', 'json']));
    const names = listed.items.map((i: any) => i.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['every-five', 'hourly']));
    expect(listed.items.every((i: any) => i.apiVersion === `${group}/v2` && typeof i.spec.schedule === 'object')).toBe(true);
    const table = await kubectl.ok(['get', `crontabs.v2.${group}`]);
    expect(table).toMatch(/NAME\s+AGE/);
    expect(table).toContain('hourly');
    expect(JSON.parse(await kubectl.ok(['get', `crontabs.v1.${group}`, 'hourly', '-o', 'json'])).spec.schedule).toBe('0 * * * *');
  });

  test('a server-side dry run in v2 answers in v2 and stores nothing', async () => {
    const body = { apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'dry' }, spec: { schedule: { minute: '2', hour: '2', dayOfMonth: '*', month: '*', dayOfWeek: '*' } } };
    const answer = JSON.parse(await kubectl.ok(['create', '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(body)));
    expect(answer).toMatchObject({ apiVersion: `${group}/v2`, spec: { schedule: { minute: '2', hour: '2' } } });
    expect(stored('dry')).toBeUndefined();
  });

  test('merge and JSON patches in v2 are applied to the v2 form and stored converted', async () => {
    await kubectl.ok(['patch', `crontabs.v2.${group}`, 'hourly', '--type=merge', '-p', '{"spec":{"schedule":{"hour":"3"}}}']);
    expect(stored('hourly').spec.schedule).toBe('0 3 * * *');
    await kubectl.ok(['patch', `crontabs.v2.${group}`, 'hourly', '--type=json', '-p', '[{"op":"replace","path":"/spec/schedule/dayOfWeek","value":"1"}]']);
    expect(stored('hourly').spec.schedule).toBe('0 3 * * 1');
    const status = await suite.call('PATCH', `/apis/${group}/v2/namespaces/default/crontabs/hourly/status`, { status: { active: 4 } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(status.code).toBe(200);
    expect(JSON.parse(status.text)).toMatchObject({ apiVersion: `${group}/v2`, status: { active: 4 }, spec: { schedule: { hour: '3' } } });
    expect(stored('hourly').status).toEqual({ active: 4 });
  });

  test('kubectl replace in v2 updates with optimistic concurrency on the stored resourceVersion', async () => {
    const current = JSON.parse(await kubectl.ok(['get', `crontabs.v2.${group}`, 'hourly', '-o', 'json']));
    current.spec.replicas = 5;
    await kubectl.ok(['replace', '-f', '-'], JSON.stringify(current));
    expect(stored('hourly').spec.replicas).toBe(5);
    const stale = await kubectl.run(['replace', '-f', '-'], JSON.stringify({ ...current, spec: { ...current.spec, replicas: 6 } }));
    expect(stale.stderr).toContain(`Operation cannot be fulfilled on crontabs.${group} "hourly": the object has been modified; please apply your changes to the latest version and try again`);
  });

  test('kubectl apply --server-side in v2: the object is stored as v1, managedFields record v2', async () => {
    const config = (hour: string) => JSON.stringify({ apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'applied' }, spec: { schedule: { minute: '30', hour, dayOfMonth: '*', month: '*', dayOfWeek: '*' } } });
    await kubectl.ok(['apply', '--server-side', '-f', '-'], config('1'));
    expect(stored('applied')).toMatchObject({ apiVersion: `${group}/v1`, spec: { schedule: '30 1 * * *' } });
    await kubectl.ok(['apply', '--server-side', '-f', '-'], config('2'));
    expect(stored('applied').spec.schedule).toBe('30 2 * * *');
    const got = JSON.parse(await kubectl.ok(['get', `crontabs.v2.${group}`, 'applied', '-o', 'json', '--show-managed-fields']));
    const entries = got.metadata.managedFields.map((m: any) => ({ manager: m.manager, operation: m.operation, apiVersion: m.apiVersion }));
    expect(entries).toEqual([{ manager: 'kubectl', operation: 'Apply', apiVersion: `${group}/v2` }]);
    expect(Object.keys(got.metadata.managedFields[0].fieldsV1['f:spec']['f:schedule'])).toEqual(expect.arrayContaining(['f:minute', 'f:hour']));
    // a v1 manager changing the field the v2 applier owns conflicts, as the field is the same spec.schedule
    const conflict = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', '-'], JSON.stringify({ apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'applied' }, spec: { schedule: { hour: '9' } } }));
    expect(conflict.stderr).toContain('conflict with "kubectl": .spec.schedule.hour');
  });

  test('kubectl get --watch in v2: events of writes in v1 are printed converted', async () => {
    const openWatches = suite.cluster.internals.watches.size;
    const watch = kubectlWatch([`crontabs.v2.${group}`, '--field-selector=metadata.name=kubectl-watched']);
    try {
      await suite.until('kubectl to start watching', async () => suite.cluster.internals.watches.size > openWatches);
      await kubectl.ok(['create', '-f', '-'], v1('kubectl-watched', '0 0 * * *'));
      await kubectl.ok(['patch', `crontabs.v1.${group}`, 'kubectl-watched', '--type=merge', '-p', '{"spec":{"schedule":"0 18 * * *"}}']);
      await suite.until('two events from kubectl', async () => watch.objects.length >= 2);
      expect(watch.objects.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
      expect(watch.objects.map((e) => [e.object.apiVersion, e.object.spec.schedule.hour])).toEqual([[`${group}/v2`, '0'], [`${group}/v2`, '18']]);
    } finally {
      watch.stop();
    }
  });

  test("managers of v1 are compared in v1: an apply in v2 conflicts with v1's owner of the schedule, force takes it", async () => {
    await kubectl.ok(['create', '-f', '-'], v1('shared', '0 1 * * *'));
    const config = JSON.stringify({ apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'shared' }, spec: { schedule: { minute: '0', hour: '5', dayOfMonth: '*', month: '*', dayOfWeek: '*' } } });
    const refused = await kubectl.run(['apply', '--server-side', '--field-manager=planner', '-f', '-'], config);
    expect(refused.stderr).toMatch(new RegExp(`Apply failed with 1 conflict: conflict with "kubectl-create" using ${group}/v1 at [0-9TZ:-]+: \\.spec\\.schedule`));
    expect(stored('shared').spec.schedule).toBe('0 1 * * *');
    await kubectl.ok(['apply', '--server-side', '--field-manager=planner', '--force-conflicts', '-f', '-'], config);
    expect(stored('shared').spec.schedule).toBe('0 5 * * *');
    const managers = (o: any) => o.metadata.managedFields.map((m: any) => [m.manager, m.apiVersion, Object.keys(m.fieldsV1['f:spec'] ?? {}).sort()]);
    expect(managers(stored('shared'))).toEqual([
      ['kubectl-create', `${group}/v1`, ['f:replicas']],
      ['planner', `${group}/v2`, ['f:schedule']],
    ]);
    // a v2 update removing replicas leaves the v1 manager nothing: its entry goes
    await kubectl.ok(['patch', `crontabs.v2.${group}`, 'shared', '--type=merge', '-p', '{"spec":{"replicas":null}}']);
    expect(managers(stored('shared'))).toEqual([['planner', `${group}/v2`, ['f:schedule']]]);
  });

  test('watch in v2: events, including those of writes in v1, arrive converted and in order', async () => {
    const watch = await suite.watch(`/apis/${group}/v2/namespaces/default/crontabs?watch=1&fieldSelector=metadata.name%3Dwatched`);
    try {
      await kubectl.ok(['create', '-f', '-'], v1('watched', '0 0 * * *'));
      await kubectl.ok(['patch', `crontabs.v1.${group}`, 'watched', '--type=merge', '-p', '{"spec":{"schedule":"0 12 * * *"}}']);
      await kubectl.ok(['delete', `crontabs.v1.${group}`, 'watched']);
      await suite.until('three events', async () => watch.events.length >= 3);
      expect(watch.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      expect(watch.events.map((e) => e.object.apiVersion)).toEqual([`${group}/v2`, `${group}/v2`, `${group}/v2`]);
      expect(watch.events.map((e) => e.object.spec.schedule.hour)).toEqual(['0', '12', '12']);
    } finally {
      watch.close();
    }
  });

  test('delete in v2 answers with the object in v2 while a finalizer holds it', async () => {
    await kubectl.ok(['create', '-f', '-'], v1('held', '1 2 3 4 5', { finalizers: ['example.com/hold'] }));
    const r = await suite.call('DELETE', `/apis/${group}/v2/namespaces/default/crontabs/held`);
    expect(r.code).toBe(200);
    const body = JSON.parse(r.text);
    expect(body.apiVersion).toBe(`${group}/v2`);
    expect(body.spec.schedule).toEqual({ minute: '1', hour: '2', dayOfMonth: '3', month: '4', dayOfWeek: '5' });
    expect(body.metadata.deletionTimestamp).toBeDefined();
    await kubectl.ok(['patch', `crontabs.v2.${group}`, 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    expect(stored('held')).toBeUndefined();
  });

  test('delete of a collection in v2 answers the objects it holds in v2', async () => {
    await kubectl.ok(['create', '-f', '-'], v1('collected', '9 9 9 9 1', { labels: { batch: 'collect' }, finalizers: ['example.com/hold'] }));
    await kubectl.ok(['create', '-f', '-'], v1('collected-too', '9 9 9 9 2', { labels: { batch: 'collect' } }));
    const r = await suite.call('DELETE', `/apis/${group}/v2/namespaces/default/crontabs?labelSelector=batch%3Dcollect`);
    expect(r.code).toBe(200);
    const body = JSON.parse(r.text);
    expect(body).toMatchObject({ kind: 'CronTabList', apiVersion: `${group}/v2` });
    expect(body.items.map((i: any) => [i.apiVersion, i.metadata.name, i.spec.schedule.dayOfWeek])).toEqual([[`${group}/v2`, 'collected', '1']]);
    expect(stored('collected-too')).toBeUndefined();
    await kubectl.ok(['patch', `crontabs.v1.${group}`, 'collected', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  });

  test('an in-process metadata write through v2 (garbage collector, cleanup) keeps the object stored as v1', async () => {
    const v2Type = suite.cluster.internals.catalog.find(group, 'v2', 'crontabs')!;
    const before = stored('hourly');
    suite.cluster.internals.operations.patch(v2Type, 'default', 'hourly', 'application/merge-patch+json', { metadata: { labels: { gc: 'touched' } } }, { fieldManager: 'generic-garbage-collector' });
    const after = stored('hourly');
    expect(after.apiVersion).toBe(`${group}/v1`);
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.labels).toEqual({ gc: 'touched' });
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
  });

  test('kubectl scale through v2 changes the replicas of the object stored as v1, and nothing else', async () => {
    const before = stored('hourly');
    await kubectl.ok(['scale', `crontabs.v2.${group}`, 'hourly', '--replicas=7']);
    const after = stored('hourly');
    expect(after).toMatchObject({ apiVersion: `${group}/v1`, spec: { ...before.spec, replicas: 7 } });
    const scale = JSON.parse(await kubectl.ok(['get', `crontabs.v2.${group}`, 'hourly', '--subresource=scale', '-o', 'json']));
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 7 } });
  });

  test("the runtime's client reads, updates and lists in v2", async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(suite.cluster.kubeconfigPath);
    const kinds = new KindRegistry();
    const V2 = kinds.register({ group, version: 'v2', kind: 'CronTab', plural: 'crontabs', namespaced: true });
    const client = new Client(new Transport(kubeConfig), kinds);
    const got = await client.get<any>(V2, { namespace: 'default', name: 'every-five' });
    expect(got.spec.schedule.minute).toBe('*/5');
    got.spec.schedule.minute = '*/10';
    const updated = await client.update<any>(got);
    expect(updated.apiVersion).toBe(`${group}/v2`);
    expect(stored('every-five').spec.schedule).toBe('*/10 * * * *');
    const listed = await client.list<any>(V2, { namespace: 'default' });
    expect(listed.find((o) => o.metadata.name === 'every-five')?.spec.schedule.minute).toBe('*/10');
    const created = await client.create<any>({ apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'from-client', namespace: 'default' }, spec: { schedule: { minute: '5', hour: '4', dayOfMonth: '*', month: '*', dayOfWeek: '*' } } });
    expect(created.spec.schedule.hour).toBe('4');
    expect(stored('from-client').spec.schedule).toBe('5 4 * * *');
  });
});

describe("the runtime's informer and server-side apply in v2", () => {
  test('an informer of v2 lists and watches converted objects; apply in v2 is stored as v1', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(suite.cluster.kubeconfigPath);
    const kinds = new KindRegistry();
    const V2 = kinds.register({ group, version: 'v2', kind: 'CronTab', plural: 'crontabs', namespaced: true });
    const transport = new Transport(kubeConfig);
    const client = new Client(transport, kinds);
    const informer = new Informer<any>({ kind: V2, client, transport, namespace: 'default', fieldSelector: 'metadata.name=informed' });
    const seen: string[] = [];
    informer.addHandler({ onAdd: (o) => seen.push(`add ${o.spec.schedule.hour}`), onUpdate: (_old, o) => seen.push(`update ${o.spec.schedule.hour}`), onDelete: () => seen.push('delete') });
    try {
      await kubectl.ok(['create', '-f', '-'], v1('informed', '0 8 * * *'));
      informer.start();
      await informer.waitForSync();
      await client.apply({ apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'informed', namespace: 'default' }, spec: { schedule: { minute: '0', hour: '9', dayOfMonth: '*', month: '*', dayOfWeek: '*' } } } as any, { fieldManager: 'runtime', force: true });
      expect(stored('informed').spec.schedule).toBe('0 9 * * *');
      await kubectl.ok(['patch', `crontabs.v1.${group}`, 'informed', '--type=merge', '-p', '{"spec":{"schedule":"0 10 * * *"}}']);
      await suite.until('the informer to see both changes', async () => seen.length >= 3);
      expect(seen).toEqual(['add 8', 'update 9', 'update 10']);
      expect(informer.store.get('default/informed')?.apiVersion).toBe(`${group}/v2`);
    } finally {
      await informer.stop();
      transport.close();
    }
  });
});

describe('a service client config reaches the webhook as admission webhooks do', () => {
  test('the Service port maps to the webhook listening on 127.0.0.1', async () => {
    await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'crontab-conversion' }, spec: { ports: [{ port: 443, targetPort: port }] } }));
    await kubectl.ok(['create', '-f', '-'], JSON.stringify(crontabCrd({ service: { name: 'crontab-conversion', namespace: 'default', path: '/convert' }, caBundle }, 'crondays', 'CronDay')));
    await suite.until('crondays to be served', async () => (await kubectl.run(['get', `crondays.v2.${group}`])).code === 0);
    await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: `${group}/v1`, kind: 'CronDay', metadata: { name: 'noon' }, spec: { schedule: '0 12 * * *' } }));
    reviews.length = 0;
    const got = JSON.parse(await kubectl.ok(['get', `crondays.v2.${group}`, 'noon', '-o', 'json']));
    expect(got.spec.schedule).toEqual({ minute: '0', hour: '12', dayOfMonth: '*', month: '*', dayOfWeek: '*' });
    expect(reviews.map((r) => r.request.objects[0].kind)).toEqual(['CronDay']);
    await kubectl.ok(['delete', 'service', 'crontab-conversion']);
    const gone = await kubectl.run(['get', `crondays.v2.${group}`, 'noon']);
    expect(gone.stderr).toContain(`Error from server: conversion webhook for ${group}/v1, Kind=CronDay failed: Post "https://crontab-conversion.default.svc:443/convert": service "crontab-conversion" not found`);
  });
});

describe('admission webhooks see the object in the version they are registered for', () => {
  test('matchPolicy Equivalent: a v1 webhook gets a v2 create converted to v1, and its patch is converted back', async () => {
    const rules = [{ operations: ['CREATE'], apiGroups: [group], apiVersions: ['v1'], resources: ['crontabs'] }];
    const hook = (name: string, path: string, matchPolicy: string) => ({ name, clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle }, rules, admissionReviewVersions: ['v1'], sideEffects: 'None', matchPolicy });
    await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'crontab-hours' }, webhooks: [hook('hours.stable.example.com', '/admit/mutate', 'Equivalent')] }));
    await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'crontab-exact' }, webhooks: [hook('exact.stable.example.com', '/admit/exact', 'Exact')] }));
    try {
      const body = { apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'admitted' }, spec: { schedule: { minute: '15', hour: '1', dayOfMonth: '*', month: '*', dayOfWeek: '*' } } };
      const created = JSON.parse(await kubectl.ok(['create', '-f', '-', '-o', 'json'], JSON.stringify(body)));
      expect(created.spec.schedule).toEqual({ minute: '15', hour: '6', dayOfMonth: '*', month: '*', dayOfWeek: '*' });
      expect(stored('admitted').spec.schedule).toBe('15 6 * * *');
      const seen = admissionReviews.filter((r) => r.name === 'admitted');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        kind: { group, version: 'v1', kind: 'CronTab' },
        resource: { group, version: 'v1', resource: 'crontabs' },
        requestKind: { group, version: 'v2', kind: 'CronTab' },
        requestResource: { group, version: 'v2', resource: 'crontabs' },
        object: { apiVersion: `${group}/v1`, spec: { schedule: '15 1 * * *' } },
      });
    } finally {
      await kubectl.ok(['delete', 'mutatingwebhookconfiguration', 'crontab-hours']);
      await kubectl.ok(['delete', 'validatingwebhookconfiguration', 'crontab-exact']);
    }
  });
});

describe("the webhook's failures give kube-apiserver's errors", () => {
  const getV2 = () => kubectl.run(['get', `crontabs.v2.${group}`, 'every-five', '-o', 'json']);
  const gvk = `${group}/v1, Kind=CronTab`;

  test('a response for another uid', async () => {
    mode = 'wrong-uid';
    const r = await getV2();
    expect(r.stderr).toMatch(new RegExp(`Error from server: conversion webhook for ${gvk} failed: expected response\\.uid="[0-9a-f-]{36}", got "not-the-request-uid"`));
    const raw = await suite.call('GET', `/apis/${group}/v2/namespaces/default/crontabs/every-five`);
    expect(raw.code).toBe(500);
    expect(JSON.parse(raw.text)).toMatchObject({ kind: 'Status', status: 'Failure', code: 500 });
  });

  test('the wrong number of objects, the wrong apiVersion, a changed name', async () => {
    mode = 'two-objects';
    expect((await getV2()).stderr).toContain(`conversion webhook for ${gvk} returned 2 objects, expected 1`);
    mode = 'wrong-version';
    expect((await getV2()).stderr).toContain(`conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${group}/v2, received ${group}/v3)`);
    mode = 'renamed';
    expect((await getV2()).stderr).toContain(`conversion webhook for ${gvk} returned invalid object: must have the same name: every-five != other`);
  });

  test('a Failure result, an HTTP error, a timeout', async () => {
    mode = 'refuse';
    expect((await getV2()).stderr).toContain(`conversion webhook for ${gvk} failed: schedule cannot be converted`);
    mode = 'http-500';
    expect((await getV2()).stderr).toContain(`conversion webhook for ${gvk} failed: Post "https://127.0.0.1:${port}/convert": an error on the server ("boom") has prevented the request from succeeding`);
    mode = 'slow';
    expect((await getV2()).stderr).toContain(`conversion webhook for ${gvk} failed: Post "https://127.0.0.1:${port}/convert": context deadline exceeded`);
  });

  test('a failed conversion of a write stores nothing; a list fails as a whole', async () => {
    mode = 'refuse';
    const body = { apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'refused' }, spec: { schedule: { minute: '1' } } };
    const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(body));
    expect(r.stderr).toContain(`conversion webhook for ${group}/v2, Kind=CronTab failed: schedule cannot be converted`);
    expect(stored('refused')).toBeUndefined();
    expect((await kubectl.run(['get', `crontabs.v2.${group}`])).stderr).toContain(`conversion webhook for ${gvk} failed: schedule cannot be converted`);
  });

  test('a watch whose conversion fails ends with an ERROR event', async () => {
    await kubectl.ok(['apply', '-f', '-'], v1('watched-failing', '0 0 * * *'));
    mode = 'refuse';
    const watch = await suite.watch(`/apis/${group}/v2/namespaces/default/crontabs?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dwatched-failing`);
    await watch.ended;
    const last = watch.events[watch.events.length - 1];
    expect(last).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 500 } });
    expect(last.object.message).toContain('failed: schedule cannot be converted');
  });
});

describe('storedVersions and storage migration', () => {
  test('moving the storage version to v2 adds it to storedVersions and never removes v1 by itself', async () => {
    const crd = await suite.getJson(['get', 'crd', crdName]);
    expect(crd.status.storedVersions).toEqual(['v1']);
    await kubectl.ok(['patch', 'crd', crdName, '--type=json', '-p', JSON.stringify([
      { op: 'replace', path: '/spec/versions/0/storage', value: false },
      { op: 'replace', path: '/spec/versions/1/storage', value: true },
    ])]);
    expect((await suite.getJson(['get', 'crd', crdName])).status.storedVersions).toEqual(['v1', 'v2']);
    // objects written before stay in v1 until written again; a new one is stored as v2
    expect(stored('hourly').apiVersion).toBe(`${group}/v1`);
    await kubectl.ok(['create', '-f', '-'], v1('after-switch', '7 7 * * *'));
    expect(stored('after-switch')).toMatchObject({ apiVersion: `${group}/v2`, spec: { schedule: { minute: '7', hour: '7' } } });
    expect(JSON.parse(await kubectl.ok(['get', `crontabs.v1.${group}`, 'after-switch', '-o', 'json'])).spec.schedule).toBe('7 7 * * *');
  });

  test('kubeforge cluster migrate-storage rewrites every object in v2 and trims storedVersions', async () => {
    const before = suite.cluster.internals.store.list(crdName);
    expect(before.some((o) => o.apiVersion === `${group}/v1`)).toBe(true);
    let printed = '';
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    }) as typeof process.stdout.write);
    try {
      await main(['node', 'kubeforge', 'cluster', 'migrate-storage', crdName, '--kubeconfig', suite.cluster.kubeconfigPath]);
    } finally {
      write.mockRestore();
    }
    expect(printed).toContain(`customresourcedefinition ${crdName}: ${before.length} object(s) written in storage version v2; status.storedVersions: [v2]`);
    const after = suite.cluster.internals.store.list(crdName);
    expect(after.map((o) => o.apiVersion)).toEqual(before.map(() => `${group}/v2`));
    expect((after.find((o) => o.metadata.name === 'hourly')?.spec as Record<string, unknown> | undefined)?.schedule).toEqual({ minute: '0', hour: '3', dayOfMonth: '*', month: '*', dayOfWeek: '1' });
    expect((await suite.getJson(['get', 'crd', crdName])).status.storedVersions).toEqual(['v2']);
    await expect(main(['node', 'kubeforge', 'cluster', 'migrate-storage', 'nothing.example.com', '--kubeconfig', suite.cluster.kubeconfigPath])).rejects.toThrow('customresourcedefinition nothing.example.com not found');
  });

  test('cluster.migrateStorage(name) does the same in-process', async () => {
    await kubectl.ok(['patch', 'crd', crdName, '--type=json', '-p', JSON.stringify([
      { op: 'replace', path: '/spec/versions/0/storage', value: true },
      { op: 'replace', path: '/spec/versions/1/storage', value: false },
    ])]);
    const result = await suite.cluster.migrateStorage(crdName);
    const count = suite.cluster.internals.store.list(crdName).length;
    expect(result).toEqual({ rewritten: count, storageVersion: 'v1', storedVersions: ['v1'] });
    expect(suite.cluster.internals.store.list(crdName).every((o) => o.apiVersion === `${group}/v1` && typeof (o.spec as Record<string, unknown>).schedule === 'string')).toBe(true);
    await expect(suite.cluster.migrateStorage('nothing.example.com')).rejects.toThrow('customresourcedefinitions.apiextensions.k8s.io "nothing.example.com" not found');
  });
});
