/**
 * Cluster-wide allocation of Service cluster IPs (10.96.0.0/16) and node ports (30000–32767), as
 * kube-apiserver's allocators do it, computed from the stored Services (so an address is released the
 * moment its Service is gone, and dry runs allocate nothing). Dynamic picks are pseudo-random — seeded
 * by the Service's uid, itself drawn from the cluster's seed — and never collide; a requested address
 * or port already held by another Service answers the real 422.
 */
import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import { GoSyntaxValue, goQuote, invalid } from '../../errors/field-errors.js';
import { invalidObject } from '../../errors/status-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { dynamicAddress, dynamicBandSize, inServiceRange, nodePortRange, serviceCidr } from './service-network.js';

export const needsNodePorts = (type: string | undefined): boolean => type === 'NodePort' || type === 'LoadBalancer';

/** Addresses held by stored Services other than `exceptUid`. */
export function allocatedClusterIPs(services: readonly KubeObject[], exceptUid?: string): Set<string> {
  const used = new Set<string>();
  for (const s of services.map((o) => asStored<Service>(o))) {
    if (s.metadata.uid === exceptUid || s.spec?.type === 'ExternalName') continue;
    for (const ip of s.spec?.clusterIPs ?? (s.spec?.clusterIP ? [s.spec.clusterIP] : [])) if (ip && ip !== 'None') used.add(ip);
  }
  return used;
}

/** Node ports held by stored Services other than `exceptUid`. */
export function allocatedNodePorts(services: readonly KubeObject[], exceptUid?: string): Set<number> {
  const used = new Set<number>();
  for (const s of services.map((o) => asStored<Service>(o))) {
    if (s.metadata.uid === exceptUid) continue;
    for (const p of s.spec?.ports ?? []) if (typeof p?.nodePort === 'number' && p.nodePort > 0) used.add(p.nodePort);
    if (typeof s.spec?.healthCheckNodePort === 'number' && s.spec.healthCheckNodePort > 0) used.add(s.spec.healthCheckNodePort);
  }
  return used;
}

/** FNV-1a of a string: the starting point of a pseudo-random probe. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A free address of the dynamic band, starting from a point chosen by `seed`. */
export function pickClusterIP(used: ReadonlySet<string>, seed: string): string {
  const start = hash(seed);
  for (let i = 0; i < dynamicBandSize; i++) {
    const ip = dynamicAddress(start + i);
    if (!used.has(ip)) return ip;
  }
  throw new Error('failed to allocate a serviceIP: range is full');
}

/** A free node port, starting from a point chosen by `seed`. */
export function pickNodePort(used: ReadonlySet<number>, seed: string): number {
  const size = nodePortRange.last - nodePortRange.first + 1;
  const start = hash(seed);
  for (let i = 0; i < size; i++) {
    const port = nodePortRange.first + ((start + i) % size);
    if (!used.has(port)) return port;
  }
  throw new Error('failed to allocate a nodePort: range is full');
}

const goStrings = (values: string[]): GoSyntaxValue => new GoSyntaxValue(`[]string{${values.map(goQuote).join(', ')}}`);

/** Why a requested cluster IP cannot be had (undefined: it can). */
function clusterIPRefusal(ip: string, used: ReadonlySet<string>): string | undefined {
  if (!inServiceRange(ip)) return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceCidr}`;
  if (used.has(ip)) return 'provided IP is already allocated';
  return undefined;
}

/** Why a requested node port cannot be had (undefined: it can). */
function nodePortRefusal(port: number, used: ReadonlySet<number>): string | undefined {
  if (port < nodePortRange.first || port > nodePortRange.last) {
    return `provided port is not in the valid range. The range of valid ports is ${nodePortRange.first}-${nodePortRange.last}`;
  }
  if (used.has(port)) return 'provided port is already allocated';
  return undefined;
}

/** Fills spec.clusterIP/clusterIPs of a Service that needs one (empty → a free address; given → checked). */
export function allocateClusterIP(service: KubeObject, used: ReadonlySet<string>): void {
  const spec = asStored<Service>(service).spec!;
  const wanted: string = spec.clusterIPs?.[0] ?? '';
  if (wanted === 'None') return;
  if (wanted === '') {
    const ip = pickClusterIP(used, service.metadata.uid ?? service.metadata.name ?? '');
    spec.clusterIP = ip;
    spec.clusterIPs = [ip, ...(spec.clusterIPs ?? []).slice(1)];
    return;
  }
  const refusal = clusterIPRefusal(wanted, used);
  if (refusal) {
    throw invalidObject('Service', '', service.metadata.name ?? '', [invalid('spec.clusterIPs', goStrings(spec.clusterIPs!), `failed to allocate IP ${wanted}: ${refusal}`)]);
  }
  spec.clusterIP = wanted;
}

/**
 * Gives every port of a NodePort/LoadBalancer Service a node port: requested ones are checked, the
 * others allocated (ports sharing a port number share a node port). `kept` are node ports the Service
 * already held before this write (an update keeps them without a new check).
 */
export function allocateNodePorts(service: KubeObject, used: ReadonlySet<number>, kept: ReadonlySet<number> = new Set()): void {
  const ports: ServicePort[] = asStored<Service>(service).spec?.ports ?? [];
  const taken = new Set(used);
  const byPort = new Map<number, number>();
  ports.forEach((p, i) => {
    if (!p || typeof p !== 'object') return;
    const requested = typeof p.nodePort === 'number' && p.nodePort > 0 ? p.nodePort : undefined;
    if (requested !== undefined) {
      if (!kept.has(requested) && byPort.get(p.port) !== requested) {
        const refusal = nodePortRefusal(requested, taken);
        if (refusal) throw invalidObject('Service', '', service.metadata.name ?? '', [invalid(`spec.ports[${i}].nodePort`, requested, refusal)]);
      }
      taken.add(requested);
      byPort.set(p.port, requested);
      return;
    }
    const shared = byPort.get(p.port);
    const port = shared ?? pickNodePort(taken, `${service.metadata.uid ?? service.metadata.name}/${i}`);
    p.nodePort = port;
    taken.add(port);
    byPort.set(p.port, port);
  });
}
