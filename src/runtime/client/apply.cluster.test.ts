/**
 * Server-side apply with generated apply configurations, against the local cluster over its socket: two field
 * managers, the managedFields each owns, the 409 Conflict a second manager gets without force (the API
 * server's message), taking the field with force, status apply, and the checks made before sending.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { ManagedFieldsEntry } from 'kubernetes-types/meta/v1.js';
import type { ApplyConfigurationOf } from './apply.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { ApiError, isConflict } from './api-error.js';
import type { ApplyOptions } from './client.js';
import { defineKind } from './kinds.js';
import * as ac from './testdata/api/v1/zz_generated.applyconfigurations.js';
import type { Widget } from './testdata/api/v1/widget_types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const WidgetKind = defineKind<Widget>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ crdPaths: [path.join(here, 'testdata')], authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
});
afterAll(async () => env?.stop());

/** Each Apply entry's manager, subresource and the fields it owns, as `f:` paths. */
function applyOwners(entries: ManagedFieldsEntry[] | undefined): Record<string, string[]> {
  const owners: Record<string, string[]> = {};
  const paths = (node: unknown, prefix: string): string[] =>
    Object.entries((node ?? {}) as Record<string, unknown>).flatMap(([key, child]) =>
      key === '.' ? [] : child && typeof child === 'object' && Object.keys(child).length > 0 ? paths(child, `${prefix}${key}/`) : [`${prefix}${key}`],
    );
  for (const entry of entries ?? []) {
    if (entry.operation !== 'Apply') continue;
    owners[`${entry.manager}${entry.subresource ? `/${entry.subresource}` : ''}`] = paths(entry.fieldsV1, '').sort();
  }
  return owners;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  );
}

describe('client.apply with generated apply configurations', () => {
  test('two managers: ownership in managedFields, 409 with the API server message without force, the field moves with force', async () => {
    const client = env.client;
    const config = ac.Widget('ssa', 'default').withLabels({ team: 'a' }).withSpec(ac.WidgetSpec().withSize(1).withColor('red'));
    const first: Widget = await client.apply(config, { fieldManager: 'alice' });
    expect(first.spec).toEqual({ size: 1, color: 'red' });
    expect(first.metadata?.labels).toEqual({ team: 'a' });
    expect(applyOwners(first.metadata?.managedFields)).toEqual({ alice: ['f:metadata/f:labels/f:team', 'f:spec/f:color', 'f:spec/f:size'] });
    // the same configuration again changes nothing
    const again = await client.apply(config, { fieldManager: 'alice' });
    expect(again.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);

    const bob = ac.Widget('ssa', 'default').withSpec(ac.WidgetSpec().withColor('blue').withSize(1));
    const conflict = await rejection(client.apply(bob, { fieldManager: 'bob' }));
    expect(isConflict(conflict)).toBe(true);
    expect((conflict as ApiError).status?.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.color');
    expect((conflict as ApiError).status?.details?.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.color' }]);
    expect((await client.get(WidgetKind, { namespace: 'default', name: 'ssa' })).spec?.color).toBe('red');

    const forced = await client.apply(bob, { fieldManager: 'bob', force: true });
    expect(forced.spec).toEqual({ size: 1, color: 'blue' });
    // size has the same value for both, so both own it; color moved to bob
    expect(applyOwners(forced.metadata?.managedFields)).toEqual({
      alice: ['f:metadata/f:labels/f:team', 'f:spec/f:size'],
      bob: ['f:spec/f:color', 'f:spec/f:size'],
    });
  });

  test('status().apply writes status through /status, owned by its own entry; spec is left alone', async () => {
    const client = env.client;
    await client.apply(ac.Widget('ssa-status', 'default').withSpec(ac.WidgetSpec().withSize(3)), { fieldManager: 'alice' });
    const withStatus = await client.status().apply(ac.Widget('ssa-status', 'default').withStatus(ac.WidgetStatus().withObservedSize(3)), { fieldManager: 'widget-controller' });
    expect(withStatus.status).toEqual({ observedSize: 3 });
    expect(withStatus.spec).toEqual({ size: 3 });
    expect(applyOwners(withStatus.metadata?.managedFields)).toEqual({ alice: ['f:spec/f:size'], 'widget-controller/status': ['f:status/f:observedSize'] });
    // an apply of status to the main resource is ignored there (status subresource), as on a real server
    const ignored = await client.apply(ac.Widget('ssa-status', 'default').withStatus(ac.WidgetStatus().withObservedSize(9)), { fieldManager: 'alice', force: true });
    expect(ignored.status).toEqual({ observedSize: 3 });
  });

  test('a plain partial object is a configuration too; fieldManager and metadata.name are required before sending', async () => {
    const client = env.client;
    const applied = await client.apply<ac.WidgetApplyConfiguration>({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'plain', namespace: 'default' }, spec: { color: 'green' } }, { fieldManager: 'carol' });
    expect(applied.spec).toEqual({ color: 'green' });
    const before = env.cluster.requestLog().length;
    const noManager = await rejection(client.apply(ac.Widget('plain', 'default'), {} as ApplyOptions));
    expect(String(noManager)).toBe('Error: apply Widget default/plain: fieldManager is required (give { fieldManager } or the client a field owner)');
    const noName = await rejection(client.status().apply({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'default' } }, { fieldManager: 'carol' }));
    expect(String(noName)).toBe('Error: apply status Widget default/: metadata.name must be provided to apply');
    expect(env.cluster.requestLog().length).toBe(before);
    // a Kubernetes kind through the generic configuration, answered as that kind
    const cm: ConfigMap = await client.apply<ApplyConfigurationOf<ConfigMap>>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: 'default' }, data: { a: '1' } }, { fieldManager: 'carol' });
    expect(cm.data).toEqual({ a: '1' });
    // a client with a field owner applies as it
    const owned = await client.withFieldOwner('dave').apply(ac.Widget('plain', 'default').withSpec(ac.WidgetSpec().withSize(4)), {});
    expect(applyOwners(owned.metadata?.managedFields).dave).toEqual(['f:spec/f:size']);
  });
});
