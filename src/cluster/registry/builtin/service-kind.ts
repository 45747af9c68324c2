/**
 * core/v1 Services as kube-apiserver 1.32 serves them: defaulting (type, sessionAffinity, protocol,
 * targetPort, IP families, traffic policies), cluster IP and node port allocation (service-allocation.ts),
 * the kept allocations of an update, the validation messages of pkg/apis/core/validation, and the
 * `kubectl get svc` columns. Nothing proxies traffic: a LoadBalancer stays `<pending>` (no cloud).
 */
import type { LoadBalancerIngress, Service, ServicePort, ServiceSpec } from 'kubernetes-types/core/v1.js';
import { type FieldError, GoSyntaxValue, duplicate, forbidden, goQuote, invalid, notSupported, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import { dns1035LabelErrors, dns1123LabelErrors } from '../object-meta.js';
import type { WriteContext } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { allocateClusterIP, allocateNodePorts, allocatedClusterIPs, allocatedNodePorts, needsNodePorts } from './service-allocation.js';
import { isIPAddress } from './service-network.js';

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const protocols = ['SCTP', 'TCP', 'UDP'];
/** A Service's spec, read through its kubernetes-types type. */
const specOf = (o: KubeObject): ServiceSpec | undefined => asStored<Service>(o).spec;
const isHeadless = (o: KubeObject): boolean => specOf(o)?.clusterIP === 'None' || specOf(o)?.clusterIPs?.[0] === 'None';
const needsClusterIP = (o: KubeObject): boolean => (specOf(o)?.type ?? 'ClusterIP') !== 'ExternalName';

/** Defaults every write gets (the v1 defaulting functions). */
function defaultService(o: KubeObject): void {
  o.spec ??= {};
  const spec = specOf(o)!;
  spec.type ||= 'ClusterIP';
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'ClientIP') spec.sessionAffinityConfig ??= { clientIP: { timeoutSeconds: 10800 } };
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!p || typeof p !== 'object') continue;
    p.protocol ||= 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (needsClusterIP(o)) spec.internalTrafficPolicy ??= 'Cluster';
  if (needsNodePorts(spec.type)) spec.externalTrafficPolicy ||= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  // an old client sets only the singular field
  if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
}

/** ipFamilyPolicy and ipFamilies on this IPv4 single-stack cluster (headless without selector asks for dual). */
function defaultIPFamilies(o: KubeObject, old?: KubeObject): void {
  const spec = specOf(o)!;
  if (!needsClusterIP(o)) return;
  const selectorless = !spec.selector || Object.keys(spec.selector).length === 0;
  spec.ipFamilyPolicy ??= (old && specOf(old))?.ipFamilyPolicy ?? (isHeadless(o) && selectorless ? 'RequireDualStack' : 'SingleStack');
  if (!spec.ipFamilies?.length) spec.ipFamilies = (old && specOf(old))?.ipFamilies?.length ? [...specOf(old)!.ipFamilies!] : ['IPv4'];
  if (isHeadless(o) && selectorless && spec.ipFamilyPolicy !== 'SingleStack' && spec.ipFamilies.length === 1) {
    spec.ipFamilies.push(spec.ipFamilies[0] === 'IPv4' ? 'IPv6' : 'IPv4');
  }
}

function storedServices(ctx: WriteContext): readonly KubeObject[] {
  return ctx.stored?.('services') ?? [];
}

/** The IP-related checks kube-apiserver runs before allocating (ValidateServiceClusterIPsRelatedFields). */
function validateClusterIPFields(o: KubeObject): FieldError[] {
  const spec = specOf(o) ?? {};
  if (!needsClusterIP(o)) return [];
  const errs: FieldError[] = [];
  const ips: string[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  const strings = new GoSyntaxValue(`[]string{${ips.map((ip) => goQuote(String(ip))).join(', ')}}`);
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP) errs.push(invalid('spec.clusterIPs', strings, 'first value must match `clusterIP`'));
  } else if (ips.length) {
    errs.push(invalid('spec.clusterIPs', strings, 'must be empty when `clusterIP` is not specified'));
  }
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) errs.push(invalid('spec.clusterIPs', strings, "'None' must be the first and only value"));
      return;
    }
    if (typeof ip !== 'string' || !isIPAddress(ip)) errs.push(invalid(`spec.clusterIPs[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  if (ips.length > 1) errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? 'SingleStack', "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
  (spec.ipFamilies ?? []).forEach((family: string, i: number) => {
    if (family === 'IPv6') errs.push(invalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
    else if (family !== 'IPv4') errs.push(notSupported(`spec.ipFamilies[${i}]`, family, ['IPv4', 'IPv6']));
  });
  return errs;
}

const servicePortText = (p: ServicePort): string =>
  `core.ServicePort{Name:"", Protocol:${goQuote(String(p.protocol ?? 'TCP'))}, AppProtocol:(*string)(nil), Port:${Number(p.port)}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;

function validatePorts(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(o) ?? {};
  const ports: Array<ServicePort | undefined> = Array.isArray(spec.ports) ? spec.ports : [];
  if (ports.length === 0 && !isHeadless(o) && spec.type !== 'ExternalName') errs.push(required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = `spec.ports[${i}]`;
    if (ports.length > 1 && !p?.name) errs.push(required(`${path}.name`));
    else if (p?.name) {
      for (const m of dns1123LabelErrors(p.name)) errs.push(invalid(`${path}.name`, p.name, m));
      if (names.has(p.name)) errs.push(duplicate(`${path}.name`, p.name));
      names.add(p.name);
    }
    if (typeof p?.port !== 'number' || p.port < 1 || p.port > 65535) errs.push(invalid(`${path}.port`, p?.port ?? 0, 'must be between 1 and 65535, inclusive'));
    if (!protocols.includes(p?.protocol as string)) errs.push(notSupported(`${path}.protocol`, p?.protocol ?? '', protocols));
    const target = p?.targetPort;
    if (typeof target === 'number' && (target < 1 || target > 65535)) errs.push(invalid(`${path}.targetPort`, target, 'must be between 1 and 65535, inclusive'));
    if (typeof target === 'string' && !/^[a-z0-9]([a-z0-9-]{0,13})$/.test(target)) {
      errs.push(invalid(`${path}.targetPort`, target, 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'));
    }
    if (spec.type === 'ClusterIP' && p?.nodePort) errs.push(forbidden(`${path}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
  });
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p?.nodePort) return;
    const key = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p?.protocol}/${p?.port}`;
    if (seen.has(key)) errs.push(duplicate(`spec.ports[${i}]`, new GoSyntaxValue(servicePortText(p!))));
    seen.add(key);
  });
  return errs;
}

function validateService(o: KubeObject): FieldError[] {
  const spec = specOf(o) ?? {};
  const errs: FieldError[] = [];
  for (const m of dns1035LabelErrors(o.metadata.name ?? '')) if (o.metadata.name) errs.push(invalid('metadata.name', o.metadata.name, m));
  if (spec.type === 'NodePort' && isHeadless(o)) errs.push(invalid('spec.clusterIPs[0]', 'None', "may not be set to 'None' for NodePort services"));
  if (spec.type === 'LoadBalancer' && isHeadless(o)) errs.push(invalid('spec.clusterIPs[0]', 'None', "may not be set to 'None' for LoadBalancer services"));
  if (spec.type === 'ExternalName') {
    if (spec.clusterIP) errs.push(forbidden('spec.clusterIP', 'may not be set for ExternalName services'));
    if (!spec.externalName) errs.push(required('spec.externalName'));
  }
  errs.push(...validatePorts(o));
  if (!(['ClientIP', 'None'] as Array<string | undefined>).includes(spec.sessionAffinity)) errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity ?? '', ['ClientIP', 'None']));
  if (!(serviceTypes as Array<string | undefined>).includes(spec.type)) errs.push(notSupported('spec.type', spec.type ?? '', serviceTypes));
  errs.push(...validateClusterIPFields(o));
  return errs;
}

/** `80/TCP`, `80:30080/TCP`, joined by commas (kubectl's makePortString). */
function portsCell(o: KubeObject): string {
  const text = (specOf(o)?.ports ?? []).map((p: ServicePort) => ((p.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',');
  return text || '<none>';
}

function externalIPCell(o: KubeObject): string {
  const spec = specOf(o) ?? {};
  const external: string[] = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress: string[] = (asStored<Service>(o).status?.loadBalancer?.ingress ?? []).map((i: LoadBalancerIngress) => i.ip || i.hostname).filter(Boolean) as string[];
      const all = [...ingress, ...external];
      return all.length ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

const selectorCell = (o: KubeObject): string => Object.entries(specOf(o)?.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(',') || '<none>';

export const services = defineKind({
  resource: 'services',
  kind: 'Service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  statusSubresource: true,
  returnsDeletedObject: true,
  // DNS-1035 label, checked by validateService (after the path-segment checks every kind gets)
  nameRule: 'path-segment',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Type', 'string', 'type determines how the Service is exposed. Defaults to ClusterIP.'),
      column('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
      column('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
      column('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
      ageColumn,
      column('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', 1),
    ],
    cells: (o, now) => [o.metadata.name, specOf(o)?.type ?? '', specOf(o)?.clusterIPs?.[0] ?? '<none>', externalIPCell(o), portsCell(o), age(o.metadata.creationTimestamp, now), selectorCell(o)],
  },
  strategy: {
    prepareForCreate(o, ctx) {
      defaultService(o);
      defaultIPFamilies(o);
      o.status = { loadBalancer: {} };
      // allocation follows the pre-allocation checks; a Service failing them is reported by validation
      if (validateClusterIPFields(o).length || validatePorts(o).length) return;
      const stored = storedServices(ctx);
      if (needsClusterIP(o)) allocateClusterIP(o, allocatedClusterIPs(stored));
      if (needsNodePorts(specOf(o)!.type)) allocateNodePorts(o, allocatedNodePorts(stored));
    },
    prepareForUpdate(o, old, ctx) {
      defaultService(o);
      keepAllocations(o, old);
      defaultIPFamilies(o, old);
      if (validateClusterIPFields(o).length || validatePorts(o).length) return;
      const stored = storedServices(ctx);
      if (needsClusterIP(o) && !needsClusterIP(old)) allocateClusterIP(o, allocatedClusterIPs(stored, old.metadata.uid));
      if (needsNodePorts(specOf(o)!.type)) {
        const held = new Set<number>((specOf(old)?.ports ?? []).map((p: ServicePort) => p.nodePort).filter((n: unknown) => typeof n === 'number' && n > 0) as number[]);
        allocateNodePorts(o, allocatedNodePorts(stored, old.metadata.uid), held);
      }
    },
    validateCreate: validateService,
    validateUpdate(o, old) {
      const errs = validateService(o);
      const oldIPs: string[] = specOf(old)?.clusterIPs ?? [];
      const newIPs: string[] = specOf(o)?.clusterIPs ?? [];
      const bothNeedIPs = needsClusterIP(o) && needsClusterIP(old);
      if (bothNeedIPs && !(isHeadless(o) && isHeadless(old)) && oldIPs.length === newIPs.length) {
        oldIPs.forEach((ip, i) => {
          if (ip !== newIPs[i]) errs.push(invalid(`spec.clusterIPs[${i}]`, new GoSyntaxValue(`[]string{${newIPs.map((x) => goQuote(String(x))).join(', ')}}`), 'may not change once set'));
        });
      }
      return errs;
    },
    fieldLabels: (o) => ({ 'spec.clusterIP': specOf(o)?.clusterIP ?? '', 'spec.type': specOf(o)?.type ?? '' }),
  },
});

/**
 * What an update that leaves allocated fields out keeps from the stored Service (patchAllocatedValues
 * and normalizeClusterIPs of the service REST storage): the cluster IPs, and node ports of unchanged ports.
 */
function keepAllocations(o: KubeObject, old: KubeObject): void {
  const spec = specOf(o)!;
  if (needsClusterIP(o) && needsClusterIP(old)) {
    if (specOf(old)?.clusterIPs?.length && spec.clusterIP !== specOf(old)!.clusterIP && JSON.stringify(spec.clusterIPs ?? []) === JSON.stringify(specOf(old)!.clusterIPs)) {
      // only the singular field changed (an old client): the plural follows it
      spec.clusterIPs = spec.clusterIP ? [spec.clusterIP] : undefined;
      if (!spec.clusterIPs) delete spec.clusterIPs;
    }
    if (!spec.clusterIP && specOf(old)?.clusterIP) spec.clusterIP = specOf(old)!.clusterIP;
    if (!spec.clusterIPs?.length && specOf(old)?.clusterIPs?.length) spec.clusterIPs = [...specOf(old)!.clusterIPs!];
  }
  if (!needsClusterIP(o) && needsClusterIP(old)) {
    // becoming ExternalName drops the address fields the user left as they were (dropTypeDependentFields)
    const same = (field: keyof ServiceSpec): boolean => JSON.stringify(spec[field] ?? null) === JSON.stringify(specOf(old)?.[field] ?? null);
    for (const field of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'] as const) if (same(field)) delete spec[field];
  }
  const oldPorts: ServicePort[] = specOf(old)?.ports ?? [];
  if (needsNodePorts(spec.type) && needsNodePorts(specOf(old)?.type)) {
    for (const p of spec.ports ?? []) {
      if (p?.nodePort) continue;
      const same = oldPorts.find((q) => q.port === p.port && (q.protocol ?? 'TCP') === p.protocol && q.nodePort);
      if (same) p.nodePort = same.nodePort;
    }
  } else if (!needsNodePorts(spec.type) && needsNodePorts(specOf(old)?.type)) {
    // leaving NodePort/LoadBalancer drops the node ports the user did not change
    for (const p of spec.ports ?? []) {
      if (p?.nodePort && oldPorts.some((q) => q.nodePort === p.nodePort)) delete p.nodePort;
    }
  }
}
