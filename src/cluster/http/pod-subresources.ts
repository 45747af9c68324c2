/**
 * Pod subresources the API server answers with the kubelet's help: binding (and core/v1 bindings),
 * log (from the simulated containers' log lines, with follow/previous/tail/since/timestamps and the
 * kubelet's error texts), and exec/attach/portforward/proxy (pods, services, nodes), which need a
 * container or the network: they answer as a real API server does when the kubelet cannot be reached.
 */
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1.js';
import type { ServerResponse } from 'node:http';
import { ApiError, badRequest, methodNotAllowed, notFound } from '../errors/status-errors.js';
import { invalid } from '../errors/field-errors.js';
import { invalidObject } from '../errors/status-errors.js';
import { bindPod, bindingSucceeded } from '../registry/builtin/binding-kinds.js';
import type { ObjectOperations } from '../registry/object-operations.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, ObjectStore, Stored } from '../store/object-store.js';
import type { ContainerLogs, LogLine } from '../controllers/container-logs.js';
import { internalIPOf, kubeletPort } from '../controllers/cluster-nodes.js';
import type { ResourceHandler, ResourceRequestContext } from './resource-handler.js';
import { queryBool } from './request-info.js';
import { proxyToProcess } from './process-proxy.js';
import { isProcessPodAddress } from '../controllers/pod-network.js';
import { processBackend } from '../controllers/service-backends.js';

export interface PodSubresourceParts {
  catalog: ResourceCatalog;
  store: ObjectStore;
  operations: ObjectOperations;
  now: () => number;
  /** The simulated containers' logs (absent when pods are inert). */
  logs: () => ContainerLogs | undefined;
}

/** What the API server answers when it cannot dial the kubelet (no container or network exists here). */
export function kubeletUnreachable(hostIP: string): ApiError {
  // not a typed API error on the real server either: StatusReasonUnknown (''), which ApiError leaves out
  return new ApiError(500, '', `error dialing backend: dial tcp ${hostIP}:${kubeletPort}: connect: connection refused`);
}

export function installPodSubresources(handler: ResourceHandler, parts: PodSubresourceParts): void {
  const pods = (): ReturnType<ResourceCatalog['find']> & object => parts.catalog.find('', 'v1', 'pods')!;
  const readPod = (namespace: string, name: string): Stored<Pod> => {
    const pod = parts.store.get('pods', namespace, name);
    if (!pod) throw notFound({ group: '', resource: 'pods' }, name);
    return asStored<Pod>(pod);
  };

  handler.subresourceHandlers.set('/pods/binding', (rt, ctx) => {
    if (ctx.info.verb !== 'create') throw methodNotAllowed(ctx.info.verb, { group: '', resource: 'pods/binding' });
    const binding = handler.decodeBody(ctx, bindingType(parts)) as KubeObject;
    bindPod(parts.operations, rt, ctx.info.namespace!, binding ?? {}, parts.now(), ctx.info.name, dryRun(ctx));
    return { code: 201, body: bindingSucceeded };
  });
  handler.createHandlers.set('/bindings', (rt, ctx) => {
    const binding = handler.decodeBody(ctx, rt) as KubeObject;
    bindPod(parts.operations, pods(), ctx.info.namespace!, binding ?? {}, parts.now(), undefined, dryRun(ctx));
    return { code: 201, body: bindingSucceeded };
  });

  handler.subresourceHandlers.set('/pods/log', (_rt, ctx) => {
    if (ctx.info.verb !== 'get') throw methodNotAllowed(ctx.info.verb, { group: '', resource: 'pods/log' });
    const pod = readPod(ctx.info.namespace!, ctx.info.name!);
    servePodLog(pod, ctx, parts);
    return undefined as never;
  });

  for (const sub of ['exec', 'attach', 'portforward']) {
    handler.subresourceHandlers.set(`/pods/${sub}`, (_rt, ctx) => {
      if (ctx.info.verb !== 'get' && ctx.info.verb !== 'create') throw methodNotAllowed(ctx.info.verb, { group: '', resource: `pods/${sub}` });
      const pod = readPod(ctx.info.namespace!, ctx.info.name!);
      if (sub !== 'portforward') containerOf(pod, ctx.query.get('container'));
      if (!pod.spec?.nodeName) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
      throw kubeletUnreachable(pod.status?.hostIP ?? internalIPOf(parts.store.get('nodes', undefined, pod.spec.nodeName)) ?? '');
    });
  }
  handler.subresourceHandlers.set('/pods/proxy', (_rt, ctx) => {
    const { scheme, name, port: named } = proxyTarget(ctx.info.name!);
    const pod = readPod(ctx.info.namespace!, name);
    const ip = pod.status?.podIP;
    if (!ip) throw badRequest('address not allowed');
    const port = named ?? '80';
    // a pod run as a process (its image mapped to a local build) is really there
    if (isProcessPodAddress(ip) && /^\d+$/.test(port)) return proxyToProcess(ctx, scheme, ip, Number(port)) as Promise<never>;
    throw unreachable(`${ip}:${port}`);
  });
  handler.subresourceHandlers.set('/nodes/proxy', (_rt, ctx) => {
    const name = ctx.info.name!.split(':')[0]!;
    const node = parts.store.get('nodes', undefined, name);
    if (!node) throw notFound({ group: '', resource: 'nodes' }, name);
    throw unreachable(`${internalIPOf(node)}:${kubeletPort}`);
  });
  handler.subresourceHandlers.set('/services/proxy', (_rt, ctx) => {
    const { scheme, name, port } = proxyTarget(ctx.info.name!);
    const service = parts.store.get('services', ctx.info.namespace, name);
    if (!service) throw notFound({ group: '', resource: 'services' }, name);
    const backend = processBackend(parts.store, ctx.info.namespace!, name, port);
    if (backend) return proxyToProcess(ctx, scheme, backend.ip, backend.port) as Promise<never>;
    throw new ApiError(503, 'ServiceUnavailable', `no endpoints available for service "${name}"`);
  });
}

/** `[https:]name[:port]` of a proxy path (the port a number or a port name). */
function proxyTarget(text: string): { scheme: 'http' | 'https'; name: string; port?: string } {
  const parts = text.split(':');
  const scheme = parts[0] === 'https' || parts[0] === 'http' ? (parts.shift() as 'http' | 'https') : 'http';
  const [name = '', port] = parts;
  return { scheme, name, ...(port ? { port } : {}) };
}

function unreachable(address: string): ApiError {
  return new ApiError(503, 'ServiceUnavailable', `error trying to reach service: dial tcp ${address}: connect: connection refused`);
}

function dryRun(ctx: ResourceRequestContext): boolean {
  return ctx.query.getAll('dryRun').includes('All');
}

function bindingType(parts: PodSubresourceParts): { group: string; version: string; kind: string; custom: boolean } {
  return parts.catalog.find('', 'v1', 'bindings') ?? { group: '', version: 'v1', kind: 'Binding', custom: false };
}

/** The container a request names, or the only one; the API server's 400s otherwise. */
function containerOf(pod: Stored<Pod>, requested: string | null): { name: string; init: boolean } {
  const containers: string[] = (pod.spec?.containers ?? []).map((c) => c.name);
  const inits: string[] = (pod.spec?.initContainers ?? []).map((c) => c.name);
  const name = pod.metadata.name;
  if (!requested) {
    if (containers.length === 1) return { name: containers[0]!, init: false };
    const initText = inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : '';
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]${initText}`);
  }
  if (containers.includes(requested)) return { name: requested, init: false };
  if (inits.includes(requested)) return { name: requested, init: true };
  throw badRequest(`container ${requested} is not valid for pod ${name}`);
}

interface LogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceMs?: number;
  limitBytes?: number;
}

function logOptions(ctx: ResourceRequestContext, now: number): LogOptions {
  const q = ctx.query;
  const errors = [];
  const int = (key: string): number | undefined => {
    const v = q.get(key);
    if (v === null || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n)) throw badRequest(`${key}: invalid value "${v}"`);
    return n;
  };
  const tailLines = int('tailLines');
  const sinceSeconds = int('sinceSeconds');
  const limitBytes = int('limitBytes');
  const sinceTime = q.get('sinceTime');
  if (tailLines !== undefined && tailLines < 0) errors.push(invalid('tailLines', tailLines, 'must be greater than or equal to 0'));
  if (sinceSeconds !== undefined && sinceSeconds < 1) errors.push(invalid('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  if (limitBytes !== undefined && limitBytes < 1) errors.push(invalid('limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && sinceTime) errors.push({ type: 'FieldValueForbidden' as const, field: '', detail: 'at most one of `sinceTime` or `sinceSeconds` may be specified' });
  if (errors.length) throw invalidObject('PodLogOptions', '', '', errors);
  let sinceMs: number | undefined;
  if (sinceSeconds !== undefined) sinceMs = now - sinceSeconds * 1000;
  else if (sinceTime) {
    sinceMs = Date.parse(sinceTime);
    if (Number.isNaN(sinceMs)) throw badRequest(`parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as "2006"`);
  }
  return {
    follow: queryBool(q.get('follow')),
    previous: queryBool(q.get('previous')),
    timestamps: queryBool(q.get('timestamps')),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(sinceMs !== undefined ? { sinceMs } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
  };
}

/** The container id whose log is asked for, or the kubelet's 400 (validateContainerLogStatus). */
function logInstance(pod: Stored<Pod>, container: { name: string; init: boolean }, previous: boolean): string {
  const statuses: ContainerStatus[] = container.init ? pod.status?.initContainerStatuses ?? [] : pod.status?.containerStatuses ?? [];
  const cs = statuses.find((s) => s.name === container.name);
  const podName = pod.metadata.name;
  const q = (s: string): string => JSON.stringify(s);
  if (!cs) throw badRequest(`container ${q(container.name)} in pod ${q(podName)} is waiting to start: ContainerCreating`);
  const last = cs.lastState?.terminated;
  if (previous) {
    if (!last?.containerID) throw badRequest(`previous terminated container ${q(container.name)} in pod ${q(podName)} not found`);
    return last.containerID;
  }
  if (cs.state?.running) return cs.containerID!;
  if (cs.state?.terminated) {
    const id = cs.state.terminated.containerID || last?.containerID;
    if (!id) throw badRequest(`container ${q(container.name)} in pod ${q(podName)} is terminated`);
    return id;
  }
  if (last) {
    if (!last.containerID) throw badRequest(`container ${q(container.name)} in pod ${q(podName)} is terminated`);
    return last.containerID;
  }
  if (cs.state?.waiting) throw badRequest(`container ${q(container.name)} in pod ${q(podName)} is waiting to start: ${cs.state.waiting.reason}`);
  throw badRequest(`container ${q(container.name)} in pod ${q(podName)} is waiting to start - no logs yet`);
}

/** kubelet's timestamp format: RFC 3339 with nine fractional digits. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

function servePodLog(pod: Stored<Pod>, ctx: ResourceRequestContext, parts: PodSubresourceParts): void {
  const options = logOptions(ctx, parts.now());
  const container = containerOf(pod, ctx.query.get('container'));
  const res = ctx.res;
  const begin = (): void => void res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  // an unscheduled pod has no kubelet to ask: the API server answers with an empty log
  if (!pod.spec?.nodeName) {
    begin();
    res.end();
    return;
  }
  const instance = logInstance(pod, container, options.previous);
  const logs = parts.logs();
  let lines: LogLine[] = logs?.lines(pod.metadata.uid!, instance) ?? [];
  if (options.sinceMs !== undefined) lines = lines.filter((l) => l.at >= options.sinceMs!);
  if (options.tailLines !== undefined) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
  let budget = options.limitBytes ?? Infinity;
  const format = (l: LogLine): string => `${options.timestamps ? `${timestamp(l.at)} ` : ''}${l.text}\n`;
  const write = (l: LogLine): boolean => {
    let text = format(l);
    if (budget <= 0) return false;
    if (Buffer.byteLength(text) > budget) text = Buffer.from(text).subarray(0, budget).toString();
    budget -= Buffer.byteLength(text);
    res.write(text);
    return budget > 0;
  };
  begin();
  let open = true;
  for (const l of lines) if (!(open = write(l))) break;
  const following = options.follow && open && !options.previous && logs;
  if (!following) {
    res.end();
    return;
  }
  // A container that has already ended calls back at once, before `follow` returns its unsubscribe.
  let unsubscribe: () => void = () => {};
  let finished = false;
  const finish = (response: ServerResponse): void => {
    finished = true;
    unsubscribe();
    if (!response.writableEnded) response.end();
  };
  unsubscribe = logs.follow(
    pod.metadata.uid!,
    instance,
    (l) => {
      if (!write(l)) finish(res);
    },
    () => finish(res),
  );
  if (finished) unsubscribe();
  res.on('close', () => unsubscribe());
}
