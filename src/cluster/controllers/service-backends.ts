/**
 * Where traffic to a Service goes when its pods run as real processes: a ready pod it selects with a
 * process pod address (src/cluster/controllers/pod-network.ts) and the targetPort of the Service port,
 * chosen round-robin as kube-proxy spreads connections. The API server uses it for admission webhooks
 * (`clientConfig.service`, verified as `<service>.<namespace>.svc`) and for services/proxy.
 */
import type { Pod, Service, ServicePort } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { ObjectStore, Stored } from '../store/object-store.js';
import { isProcessPodAddress } from './pod-network.js';
import { belongsInEndpoints, isPodReady, resolveTargetPort, serviceSelects } from './service-pods.js';

export interface ServiceBackend {
  ip: string;
  port: number;
  /** The name a client verifies the serving certificate for: `<service>.<namespace>.svc`. */
  serverName: string;
}

const turns = new WeakMap<ObjectStore, Map<string, number>>();

/** The Service port named by number or by name (the only port when `port` is undefined). */
function servicePortOf(service: Readonly<Stored<Service>>, port: number | string | undefined): ServicePort | undefined {
  const ports: ServicePort[] = service.spec?.ports ?? [];
  if (port === undefined || port === '') return ports.length === 1 ? ports[0] : undefined;
  return ports.find((p) => p.port === Number(port) || (p.name !== undefined && p.name === port));
}

/** A ready process pod behind `namespace/name`'s port, or undefined (no such Service, port or pod). */
export function processBackend(store: ObjectStore, namespace: string, name: string, port: number | string | undefined): ServiceBackend | undefined {
  const peeked = store.peek('services', namespace, name);
  const service = peeked && asStored<Service>(peeked);
  if (!service || !Object.keys(service.spec?.selector ?? {}).length) return undefined;
  const servicePort = servicePortOf(service, port);
  if (!servicePort) return undefined;
  const candidates: ServiceBackend[] = [];
  for (const pod of store.listShared('pods', namespace)) {
    if (!serviceSelects(service, pod) || !belongsInEndpoints(pod, false) || !isPodReady(pod)) continue;
    const podIP = asStored<Pod>(pod).status!.podIP!; // pods in endpoints have their IP
    if (!isProcessPodAddress(podIP)) continue;
    const target = resolveTargetPort(pod, servicePort);
    if (target !== undefined) candidates.push({ ip: podIP, port: target, serverName: `${name}.${namespace}.svc` });
  }
  if (!candidates.length) return undefined;
  candidates.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
  let counters = turns.get(store);
  if (!counters) turns.set(store, (counters = new Map()));
  const key = `${namespace}/${name}`;
  const turn = counters.get(key) ?? 0;
  counters.set(key, turn + 1);
  return candidates[turn % candidates.length];
}
