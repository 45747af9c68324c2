/**
 * watches() is typed by the watched kind, as controller-runtime's TypedEventHandler: a map function, handler
 * or predicate for the kind's object type compiles, one for another kind does not (the repository's tsc
 * checks this file, so each @ts-expect-error line must stay an error), and a plain KubeObject handler fits
 * every kind.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { ConfigMap, Event as CoreEvent, Pod } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, KindRegistry, type KindInfo } from '../client/kinds.js';
import type { Controller } from '../controller/controller.js';
import type { RequestQueue } from '../handler/events.js';
import { enqueueRequestForObject, enqueueRequestsFromMapFunc, eventHandlerFuncs } from '../handler/handler.js';
import { newPredicate } from '../predicate/predicate.js';
import { EventChannel, channelSource } from '../source/channel.js';
import { ControllerBuilder, type ControllerHost } from './builder.js';

const registry = new KindRegistry();
for (const kind of [BuiltinKinds.Job, BuiltinKinds.Event, BuiltinKinds.ConfigMap, BuiltinKinds.Pod] as KindInfo[]) registry.register(kind);

function host(): ControllerHost & { added: Controller[] } {
  const added: Controller[] = [];
  return { kinds: registry, added, addController: (c) => added.push(c) };
}

test('handlers and predicates take the watched kind\'s object type', () => {
  const reasons: string[] = [];
  const q: RequestQueue & { added: string[] } = { added: [], add: (r) => void q.added.push(r.name), addAfter: () => {} };
  const controller = new ControllerBuilder(host(), BuiltinKinds.Job)
    // The map function's object is a CoreEvent: `involvedObject` and `reason` type-check without a cast.
    .watches(BuiltinKinds.Event, enqueueRequestsFromMapFunc((event) => (reasons.push(event.reason ?? ''), [{ namespace: event.metadata?.namespace ?? '', name: event.involvedObject.name ?? '' }])), newPredicate((e: CoreEvent) => e.type === 'Normal'))
    .watches(BuiltinKinds.ConfigMap, eventHandlerFuncs<ConfigMap>({ create: (e, queue) => queue.add({ namespace: '', name: Object.keys(e.object.data ?? {}).join(',') }) }))
    .watches(BuiltinKinds.Pod, enqueueRequestForObject())
    .watches(channelSource(new EventChannel<Job>()), enqueueRequestsFromMapFunc((job: Job) => [{ namespace: '', name: String(job.spec?.parallelism) }]))
    .complete(async () => {});
  const [, events, configMaps] = controller.watches();
  void events!.handler.create({ object: { apiVersion: 'v1', kind: 'Event', metadata: { namespace: 'ns', name: 'e1' }, involvedObject: { name: 'job-1' }, reason: 'Completed' } as CoreEvent }, q);
  void configMaps!.handler.create({ object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } } as ConfigMap }, q);
  expect(q.added).toEqual(['job-1', 'a,b']);
  expect(reasons).toEqual(['Completed']);
});

test('a handler or predicate for another kind does not compile', () => {
  const builder = new ControllerBuilder(host(), BuiltinKinds.Job);
  const forPods = enqueueRequestsFromMapFunc((pod: Pod) => [{ namespace: '', name: pod.spec?.nodeName ?? '' }]);
  // @ts-expect-error a Pod handler on an Event watch
  builder.watches(BuiltinKinds.Event, forPods);
  // @ts-expect-error a map function reading a field Events do not have
  builder.watches(BuiltinKinds.Event, enqueueRequestsFromMapFunc((event) => [{ namespace: '', name: event.spec.nodeName }]));
  // @ts-expect-error a Pod predicate on a ConfigMap watch
  builder.watches(BuiltinKinds.ConfigMap, enqueueRequestForObject(), newPredicate((pod: Pod) => pod.spec !== undefined));
  // @ts-expect-error a Pod handler on a channel of Jobs
  builder.watches(channelSource(new EventChannel<Job>()), forPods);
  // @ts-expect-error owns() predicates follow the owned kind too
  builder.owns(BuiltinKinds.ConfigMap, { predicates: [newPredicate((pod: Pod) => pod.spec !== undefined)] });
  expect(builder).toBeInstanceOf(ControllerBuilder);
});
