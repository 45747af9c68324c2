/** The builder wires sources, handlers, predicates and options into a controller. */
import type { KubeObject, Request } from '../client/object.js';
import { BuiltinKinds, KindRegistry, defineKind } from '../client/kinds.js';
import type { Controller } from '../controller/controller.js';
import { enqueueRequestsFromMapFunc } from '../handler/handler.js';
import type { RequestQueue } from '../handler/events.js';
import { labelChanged, newPredicate } from '../predicate/predicate.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { ControllerBuilder, type ControllerHost } from './builder.js';

const registry = new KindRegistry();
const CronJobKind = registry.register({ group: 'batch.tutorial.kubebuilder.io', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true });
registry.register(BuiltinKinds.Job);

function host(): ControllerHost & { added: Controller[] } {
  const added: Controller[] = [];
  return { kinds: registry, added, addController: (c) => added.push(c) };
}

function recorder(): RequestQueue & { added: Request[] } {
  const added: Request[] = [];
  return { added, add: (r) => added.push(r), addAfter: (r) => added.push(r) };
}

const job = (name: string, owner?: string): KubeObject =>
  ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { namespace: 'ns', name, ownerReferences: owner ? [{ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: owner, uid: 'u', controller: true }] : [] } }) as KubeObject;

describe('ControllerBuilder', () => {
  test('for + owns + watches + withEventFilter + withOptions wire sources, handlers and predicates', () => {
    const h = host();
    const channel = new EventChannel();
    const onlyNs = newPredicate((o) => o.metadata?.namespace === 'ns');
    const controller = new ControllerBuilder(h, CronJobKind)
      .owns(BuiltinKinds.Job)
      .watches(channelSource(channel), enqueueRequestsFromMapFunc(() => [{ namespace: 'ns', name: 'mapped' }]), labelChanged())
      .withEventFilter(onlyNs)
      .withOptions({ maxConcurrentReconciles: 7 })
      .complete(async () => {});
    expect(h.added).toEqual([controller]);
    expect(controller.name).toBe('cronjob');
    expect(controller.options.maxConcurrentReconciles).toBe(7);
    const [primary, owned, external] = controller.watches();
    expect((primary!.source as unknown as { kind: unknown }).kind).toBe(CronJobKind);
    expect((owned!.source as unknown as { kind: unknown }).kind).toBe(registry.resolve(BuiltinKinds.Job));
    expect(primary!.predicates).toEqual([onlyNs]);
    expect(owned!.predicates).toEqual([onlyNs]);
    expect(external!.predicates).toHaveLength(2);

    const q = recorder();
    primary!.handler.create({ object: { ...job('x'), kind: 'CronJob' } }, q);
    owned!.handler.create({ object: job('j1', 'my-cron') }, q);
    owned!.handler.create({ object: job('orphan') }, q);
    external!.handler.generic({ object: job('any') }, q);
    expect(q.added).toEqual([
      { namespace: 'ns', name: 'x' },
      { namespace: 'ns', name: 'my-cron' },
      { namespace: 'ns', name: 'mapped' },
    ]);
  });

  test('named() overrides the controller name; unknown kinds fail with a clear message', () => {
    const h = host();
    expect(new ControllerBuilder(h, CronJobKind).named('cron').complete(async () => {}).name).toBe('cron');
    expect(() => new ControllerBuilder(h, { apiVersion: 'example.com/v1', kind: 'Missing' })).toThrow('no kind registered for apiVersion "example.com/v1" kind "Missing"');
  });

  test('defineKind registers into the default registry', () => {
    const kind = defineKind({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    expect(new ControllerBuilder({ kinds: registry, addController: () => {} }, kind).complete(async () => {}).name).toBe('widget');
  });
});
