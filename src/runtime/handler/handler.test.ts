/** Event handlers: which reconcile requests each event causes. */
import type { KubeObject, Request } from '../client/object.js';
import type { RequestQueue } from './events.js';
import { enqueueRequestForObject, enqueueRequestForOwner, enqueueRequestsFromMapFunc } from './handler.js';

function recordingQueue(): RequestQueue & { added: Request[] } {
  const added: Request[] = [];
  return { added, add: (r) => added.push(r), addAfter: (r) => added.push(r) };
}

const pod = (name: string, ownerReferences: unknown[] = []): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ownerReferences } }) as KubeObject;

const ref = (kind: string, name: string, apiVersion = 'batch/v1', controller?: boolean) => ({ apiVersion, kind, name, uid: `uid-${name}`, ...(controller === undefined ? {} : { controller }) });

describe('handlers', () => {
  test('enqueueRequestForObject enqueues the object for every event type', () => {
    const q = recordingQueue();
    const h = enqueueRequestForObject();
    h.create({ object: pod('a') }, q);
    h.delete({ object: pod('b') }, q);
    h.generic({ object: pod('c') }, q);
    h.update({ objectOld: pod('d'), objectNew: pod('d') }, q);
    expect(q.added).toEqual([
      { namespace: 'ns', name: 'a' },
      { namespace: 'ns', name: 'b' },
      { namespace: 'ns', name: 'c' },
      { namespace: 'ns', name: 'd' },
    ]);
  });

  test('enqueueRequestForObject enqueues an update once, and both objects when their names differ (old first)', () => {
    const q = recordingQueue();
    const h = enqueueRequestForObject();
    h.update({ objectOld: pod('same'), objectNew: pod('same') }, q);
    h.update({ objectOld: pod('old'), objectNew: pod('new') }, q);
    h.create({ object: { metadata: {} } }, q);
    expect(q.added).toEqual([
      { namespace: 'ns', name: 'same' },
      { namespace: 'ns', name: 'old' },
      { namespace: 'ns', name: 'new' },
    ]);
  });

  test('enqueueRequestForOwner enqueues only the controller owner of the matching group and kind', () => {
    const q = recordingQueue();
    const h = enqueueRequestForOwner({ group: 'batch', kind: 'Job' });
    h.create({ object: pod('p', [ref('Job', 'not-controller', 'batch/v1', false), ref('Job', 'owner', 'batch/v1', true), ref('CronJob', 'other-kind', 'batch/v1', true)]) }, q);
    h.create({ object: pod('q', [ref('Job', 'wrong-group', 'example.com/v1', true)]) }, q);
    expect(q.added).toEqual([{ namespace: 'ns', name: 'owner' }]);
  });

  test('enqueueRequestForOwner with onlyControllerOwner false enqueues every owner of the kind', () => {
    const q = recordingQueue();
    const h = enqueueRequestForOwner({ group: 'batch', kind: 'Job' }, { onlyControllerOwner: false });
    h.create({ object: pod('p', [ref('Job', 'a', 'batch/v1', false), ref('Job', 'b', 'batch/v1', true)]) }, q);
    expect(q.added.map((r) => r.name)).toEqual(['a', 'b']);
  });

  test('an update that moves ownership enqueues both the old and the new owner once each', () => {
    const q = recordingQueue();
    const h = enqueueRequestForOwner({ group: 'batch', kind: 'Job' });
    h.update({ objectOld: pod('p', [ref('Job', 'old', 'batch/v1', true)]), objectNew: pod('p', [ref('Job', 'new', 'batch/v1', true)]) }, q);
    h.update({ objectOld: pod('p', [ref('Job', 'same', 'batch/v1', true)]), objectNew: pod('p', [ref('Job', 'same', 'batch/v1', true)]) }, q);
    expect(q.added.map((r) => r.name)).toEqual(['old', 'new', 'same']);
  });

  test('enqueueRequestsFromMapFunc enqueues what the function returns', () => {
    const q = recordingQueue();
    const h = enqueueRequestsFromMapFunc((o) => [{ namespace: 'x', name: `${o.metadata!.name}-1` }, { namespace: 'x', name: `${o.metadata!.name}-2` }]);
    h.generic({ object: pod('a') }, q);
    expect(q.added).toEqual([
      { namespace: 'x', name: 'a-1' },
      { namespace: 'x', name: 'a-2' },
    ]);
  });

  describe("enqueueRequestForOwner knows the owner kind's scope", () => {
    const inNamespace = (namespace: string, owner: ReturnType<typeof ref>): KubeObject =>
      ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'child', namespace, ownerReferences: [owner] } }) as KubeObject;
    const tenantRef = ref('Tenant', 'acme', 'tenancy.example.com/v1', true);

    test('a cluster-scoped owner of children in two namespaces gives one key with no namespace', () => {
      const q = recordingQueue();
      const h = enqueueRequestForOwner({ group: 'tenancy.example.com', kind: 'Tenant', namespaced: false });
      h.create({ object: inNamespace('team-a', tenantRef) }, q);
      h.create({ object: inNamespace('team-b', tenantRef) }, q);
      h.update({ objectOld: inNamespace('team-a', tenantRef), objectNew: inNamespace('team-a', tenantRef) }, q);
      expect(q.added).toEqual([
        { namespace: '', name: 'acme' },
        { namespace: '', name: 'acme' },
        { namespace: '', name: 'acme' },
      ]);
    });

    test("a namespaced owner is looked for in its child's namespace", () => {
      const q = recordingQueue();
      const h = enqueueRequestForOwner({ group: 'batch', kind: 'Job', namespaced: true });
      h.create({ object: inNamespace('team-a', ref('Job', 'acme', 'batch/v1', true)) }, q);
      h.create({ object: inNamespace('team-b', ref('Job', 'acme', 'batch/v1', true)) }, q);
      expect(q.added).toEqual([
        { namespace: 'team-a', name: 'acme' },
        { namespace: 'team-b', name: 'acme' },
      ]);
    });

    test('without a scope given, the kind registry tells it (Namespace is cluster-scoped, Job namespaced)', () => {
      const q = recordingQueue();
      enqueueRequestForOwner({ group: '', kind: 'Namespace' }).create({ object: inNamespace('team-a', ref('Namespace', 'team-a', 'v1', true)) }, q);
      enqueueRequestForOwner({ group: 'batch', kind: 'Job' }).create({ object: inNamespace('team-a', ref('Job', 'j', 'batch/v1', true)) }, q);
      expect(q.added).toEqual([
        { namespace: '', name: 'team-a' },
        { namespace: 'team-a', name: 'j' },
      ]);
    });

    test('an owner kind of unknown scope is refused when the handler is made, as controller-runtime’s RESTMapper does', () => {
      expect(() => enqueueRequestForOwner({ group: 'tenancy.example.com', kind: 'Unregistered' })).toThrow(
        'enqueueRequestForOwner: no kind "Unregistered" of group "tenancy.example.com" is registered, so its scope is unknown: pass { namespaced } or register it with defineKind()',
      );
    });
  });
});
