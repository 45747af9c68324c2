/**
 * core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlices, written by the endpoints and
 * EndpointSlice controllers (or by hand for Services without a selector): their validation and the
 * `kubectl get ep` / `kubectl get endpointslices` columns as kube-apiserver 1.32 prints them.
 */
import type { Endpoint, EndpointSlice, EndpointPort as DiscoveryEndpointPort } from 'kubernetes-types/discovery/v1.js';
import type { EndpointAddress, EndpointPort, EndpointSubset, Endpoints } from 'kubernetes-types/core/v1.js';
import { type FieldError, invalid, notSupported, required, tooMany } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { isIPAddress } from './service-network.js';

const protocols = ['SCTP', 'TCP', 'UDP'];
const ipMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

function validatePort(p: EndpointPort | undefined, path: string, requireName: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p?.name) errs.push(required(`${path}.name`));
  if (typeof p?.port !== 'number' || p.port < 1 || p.port > 65535) errs.push(invalid(`${path}.port`, p?.port ?? 0, 'must be between 1 and 65535, inclusive'));
  if (!protocols.includes(p?.protocol as string)) errs.push(notSupported(`${path}.protocol`, p?.protocol ?? '', protocols));
  return errs;
}

function validateEndpoints(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(o.subsets) ? o.subsets : []).forEach((subset: EndpointSubset | undefined, i: number) => {
    const path = `subsets[${i}]`;
    const addresses = [...(subset?.addresses ?? []), ...(subset?.notReadyAddresses ?? [])];
    if (addresses.length === 0 && (subset?.ports ?? []).length > 0) errs.push(required(`${path}`, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [field, list] of [['addresses', subset?.addresses], ['notReadyAddresses', subset?.notReadyAddresses]] as const) {
      (list ?? []).forEach((a: EndpointAddress | undefined, j: number) => {
        if (typeof a?.ip !== 'string' || !isIPAddress(a.ip)) errs.push(invalid(`${path}.${field}[${j}].ip`, a?.ip ?? '', ipMessage));
      });
    }
    const ports: EndpointPort[] = subset?.ports ?? [];
    ports.forEach((p, j) => errs.push(...validatePort(p, `${path}.ports[${j}]`, ports.length > 1)));
  });
  return errs;
}

function defaultEndpoints(o: KubeObject): void {
  for (const subset of Array.isArray(o.subsets) ? o.subsets : []) for (const p of subset?.ports ?? []) if (p && typeof p === 'object') p.protocol ||= 'TCP';
}

/** kubectl's formatEndpoints: up to three ready `ip:port`, then `+ N more...`. */
export function endpointsCell(o: KubeObject): string {
  const subsets: EndpointSubset[] = asStored<Endpoints>(o).subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  let more = false;
  for (const ss of subsets) {
    const addresses: EndpointAddress[] = ss.addresses ?? [];
    const ports: EndpointPort[] = ss.ports ?? [];
    const targets = ports.length === 0 ? [undefined] : ports;
    for (const port of targets) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === 3) {
          more = true;
          break;
        }
        list.push(port ? `${a.ip.includes(':') ? `[${a.ip}]` : a.ip}:${port.port}` : a.ip);
      }
    }
  }
  const text = list.join(',');
  return more ? `${text} + ${count - 3} more...` : text;
}

export const endpoints = defineKind({
  resource: 'endpoints',
  kind: 'Endpoints',
  namespaced: true,
  shortNames: ['ep'],
  fields: ['subsets:list'],
  table: {
    columns: [nameColumn, column('Endpoints', 'string', 'Endpoints is the list of endpoints.'), ageColumn],
    cells: (o, now) => [o.metadata.name, endpointsCell(o), age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    prepareForCreate: defaultEndpoints,
    prepareForUpdate: defaultEndpoints,
    validateCreate: validateEndpoints,
    validateUpdate: validateEndpoints,
  },
});

/** kubectl's listWithMoreString: up to three items, then `+ N more...`; `<unset>` when empty. */
function listWithMore(items: string[]): string {
  if (items.length > 3) return `${items.slice(0, 3).join(',')} + ${items.length - 3} more...`;
  return items.join(',') || '<unset>';
}

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];

function validateEndpointSlice(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const slice = asStored<EndpointSlice>(o);
  if (!slice.addressType) errs.push(required('addressType'));
  else if (!addressTypes.includes(slice.addressType)) errs.push(notSupported('addressType', slice.addressType, addressTypes));
  const list: Array<Endpoint | undefined> = Array.isArray(slice.endpoints) ? slice.endpoints : [];
  if (list.length > 1000) errs.push(tooMany('endpoints', list.length, 1000));
  list.forEach((e, i) => {
    const addresses: unknown[] = e?.addresses ?? [];
    if (addresses.length === 0) errs.push(required(`endpoints[${i}].addresses`, 'must contain at least 1 address'));
    else if (addresses.length > 100) errs.push(tooMany(`endpoints[${i}].addresses`, addresses.length, 100));
    addresses.forEach((a, j) => {
      if ((o.addressType === 'IPv4' || o.addressType === 'IPv6') && (typeof a !== 'string' || !isIPAddress(a))) errs.push(invalid(`endpoints[${i}].addresses[${j}]`, a, ipMessage));
    });
  });
  const ports: Array<DiscoveryEndpointPort | undefined> = Array.isArray(o.ports) ? o.ports : [];
  if (ports.length > 100) errs.push(tooMany('ports', ports.length, 100));
  ports.forEach((p, i) => {
    if (p?.port !== undefined && p.port !== null && (p.port < 1 || p.port > 65535)) errs.push(invalid(`ports[${i}].port`, p.port, 'must be between 1 and 65535, inclusive'));
    if (p?.protocol !== undefined && !protocols.includes(p.protocol)) errs.push(notSupported(`ports[${i}].protocol`, p.protocol, protocols));
  });
  return errs;
}

function defaultEndpointSlice(o: KubeObject): void {
  for (const p of Array.isArray(o.ports) ? o.ports : []) {
    if (!p || typeof p !== 'object') continue;
    p.protocol ||= 'TCP';
    p.name ??= '';
  }
}

export const endpointSlices = defineKind({
  group: 'discovery.k8s.io',
  resource: 'endpointslices',
  kind: 'EndpointSlice',
  namespaced: true,
  hasGeneration: true,
  fields: ['addressType:string', 'endpoints:list', 'ports:list'],
  table: {
    columns: [
      nameColumn,
      column('AddressType', 'string', 'The type of address carried by this EndpointSlice.'),
      column('Ports', 'string', 'Ports provided by this EndpointSlice.'),
      column('Endpoints', 'string', 'Endpoints in this EndpointSlice.'),
      ageColumn,
    ],
    cells: (o, now) => [
      o.metadata.name,
      asStored<EndpointSlice>(o).addressType ?? '',
      listWithMore((asStored<EndpointSlice>(o).ports ?? []).map((p: DiscoveryEndpointPort) => (typeof p.port === 'number' ? String(p.port) : p.name || '*'))),
      listWithMore((asStored<EndpointSlice>(o).endpoints ?? []).flatMap((e: Endpoint) => e.addresses ?? [])),
      age(o.metadata.creationTimestamp, now),
    ],
  },
  strategy: {
    prepareForCreate: defaultEndpointSlice,
    prepareForUpdate: defaultEndpointSlice,
    validateCreate: validateEndpointSlice,
    validateUpdate(o, old) {
      const errs = validateEndpointSlice(o);
      if (old.addressType && o.addressType !== old.addressType) errs.push(invalid('addressType', o.addressType ?? '', 'field is immutable'));
      return errs;
    },
  },
});


export const endpointKinds: ResourceType[] = [endpoints, endpointSlices];
