/** complete() refuses a misused builder as controller-runtime's Build does, and registers nothing. */
import { BuiltinKinds, KindRegistry } from '../client/kinds.js';
import type { Controller } from '../controller/controller.js';
import type { ReconcileFunc } from '../controller/reconcile.js';
import { enqueueRequestForObject, enqueueRequestsFromMapFunc } from '../handler/handler.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { kindSource } from '../source/kind.js';
import { ControllerBuilder, type ControllerHost } from './builder.js';

const registry = new KindRegistry();
const CronJobKind = registry.register({ group: 'batch.tutorial.kubebuilder.io', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true });
registry.register(BuiltinKinds.Job);
registry.register(BuiltinKinds.ConfigMap);

function host(): ControllerHost & { added: Controller[] } {
  const added: Controller[] = [];
  return { kinds: registry, added, addController: (c) => added.push(c), hasController: (name) => added.some((c) => c.name === name) };
}

const noop: ReconcileFunc = async () => {};

describe('complete() checks the builder', () => {
  const cases: Array<[string, (b: ControllerBuilder) => ControllerBuilder, string, ReconcileFunc | undefined]> = [
    ['no reconciler', (b) => b.for(CronJobKind), 'must provide a non-nil Reconciler', undefined],
    ['For twice', (b) => b.for(CronJobKind).for(BuiltinKinds.Job), 'For(...) should only be called once, could not assign multiple objects for reconciliation', noop],
    ['Owns without For', (b) => b.named('orphans').owns(BuiltinKinds.Job), 'Owns() can only be used together with For()', noop],
    ['no For and no watch', (b) => b.named('nothing'), 'there are no watches configured, controller will never get triggered. Use For(), Owns() or Watches() to set them up', noop],
    ['no For and no name', (b) => b.watches(BuiltinKinds.Job, enqueueRequestForObject()), 'one of For() or Named() must be called', noop],
    ['an empty name', (b) => b.for(CronJobKind).named(''), 'must specify Name for Controller', noop],
    ['a name with a space', (b) => b.for(CronJobKind).named('cron job'), 'controller name "cron job" is not valid', noop],
    ['a name ending in a dash', (b) => b.for(CronJobKind).named('cron-'), 'controller name "cron-" is not valid', noop],
    ['For, Owns and Watches of one kind', (b) => b.for(CronJobKind).owns(CronJobKind).watches(CronJobKind, enqueueRequestForObject()), 'controller cronjob: CronJob (batch.tutorial.kubebuilder.io/v1) is watched twice, by For() and by Watches()', noop],
    ['Owns twice', (b) => b.for(CronJobKind).owns(BuiltinKinds.Job).owns(BuiltinKinds.Job), 'Job (batch/v1) is watched twice, by Owns() and by Owns()', noop],
    [
      'Watches of one kind twice (a KindRef and a kind source)',
      (b) => b.for(CronJobKind).watches(BuiltinKinds.ConfigMap, enqueueRequestsFromMapFunc(() => [])).watches(kindSource(BuiltinKinds.ConfigMap), enqueueRequestForObject()),
      'ConfigMap (v1) is watched twice, by Watches() and by Watches()',
      noop,
    ],
  ];
  test.each(cases)('%s: a clear error, nothing registered', (_, configure, message, reconciler) => {
    const h = host();
    const builder = configure(new ControllerBuilder(h));
    expect(() => builder.complete(reconciler as ReconcileFunc)).toThrow(message);
    expect(h.added).toEqual([]);
  });

  test('a name used twice in one manager: controller-runtime\'s error, the first controller stays the only one', () => {
    const h = host();
    const first = new ControllerBuilder(h, CronJobKind).complete(noop);
    expect(() => new ControllerBuilder(h, BuiltinKinds.Job).named('cronjob').complete(noop)).toThrow(
      'controller with name cronjob already exists. Controller names must be unique to avoid multiple controllers reporting to the same metric',
    );
    expect(h.added).toEqual([first]);
  });

  test('what Build accepts still builds: Named + Watches without For, channels alongside kinds, a reconciler object', () => {
    const h = host();
    const channel = new EventChannel();
    const ticker = new ControllerBuilder(h)
      .named('namespace-ticker')
      .watches(BuiltinKinds.Job, enqueueRequestForObject())
      .watches(channelSource(channel), enqueueRequestForObject())
      .watches(channelSource(new EventChannel()), enqueueRequestForObject())
      .complete({ reconcile: noop });
    expect(ticker.name).toBe('namespace-ticker');
    expect(ticker.watches()).toHaveLength(3);
    const owner = new ControllerBuilder(h).for(CronJobKind).owns(BuiltinKinds.Job).named('cron_v1.2').complete(noop);
    expect(owner.name).toBe('cron_v1.2');
    // a parent owning children of its own kind, as controller-runtime's builder tests do with ReplicaSets
    const nested = new ControllerBuilder(h).for(BuiltinKinds.ConfigMap).owns(BuiltinKinds.ConfigMap).complete(noop);
    expect(nested.watches()).toHaveLength(2);
    expect(h.added).toEqual([ticker, owner, nested]);
  });
});
