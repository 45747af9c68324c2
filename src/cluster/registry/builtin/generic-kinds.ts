/**
 * The data-driven fallback for every row of the 1.32 resource table (api-resources.ts) that no specific
 * kind implements: names, scope, verbs and subresources from the table; decoding, explain and OpenAPI
 * from the 1.32 definitions; the server's simple defaults and `kubectl get` columns where the real
 * printers have them (Name + Age otherwise); and the required-string checks the schema states.
 */
import type { CSIDriver, CSIDriverSpec, CSINode, TokenRequest, VolumeAttachment } from 'kubernetes-types/storage/v1.js';
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { ComponentCondition, ComponentStatus, Container, PodTemplate } from 'kubernetes-types/core/v1.js';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1.js';
import type { HTTPIngressPath, Ingress, IngressClass, IngressLoadBalancerIngress, IngressRule, NetworkPolicy, NetworkPolicyEgressRule, NetworkPolicyIngressRule, NetworkPolicyPort } from 'kubernetes-types/networking/v1.js';
import { type FieldError, forbidden, invalid, notSupported, required } from '../../errors/field-errors.js';
import { type Schema, builtinDefinition, definitionName, referencedName } from '../../schemas/builtin-schemas.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { labelSelectorToString } from '../../../selectors/label-selector.js';
import { defineKind } from '../define-kind.js';
import type { NameRule } from '../object-meta.js';
import type { ResourceStrategy, ResourceType, ScaleSubresource, TableSpec } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { type ApiResourceRow, apiResources } from './api-resources.js';
import { copyObject } from '../../store/copy-object.js';

/** apiregistration.k8s.io/v1 APIService (kubernetes-types has no type for it): the fields read here. */
interface APIService {
  spec?: { service?: { namespace?: string; name?: string }; group?: string; version?: string; groupPriorityMinimum?: number; versionPriority?: number };
  status?: { conditions?: Condition[] };
}

/** Table columns as kube-apiserver 1.32's printers (pkg/printers/internalversion) make them. */
const tables: Record<string, TableSpec> = {
  'networking.k8s.io/ingresses': {
    columns: [nameColumn, column('Class', 'string', 'The name of the IngressClass resource that should be used for this Ingress.'), column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'), column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'), column('Ports', 'string', 'Ports of TLS configurations that open'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<Ingress>(stored);
      const hosts = (o.spec?.rules ?? []).map((r: IngressRule) => r.host).filter(Boolean);
      const address = (o.status?.loadBalancer?.ingress ?? []).map((i: IngressLoadBalancerIngress) => i.ip || i.hostname).filter(Boolean).join(',');
      return [o.metadata.name, o.spec?.ingressClassName ?? '<none>', hosts.length ? hosts.join(',') : '*', address, o.spec?.tls?.length ? '80, 443' : '80', age(o.metadata.creationTimestamp, now)];
    },
  },
  'networking.k8s.io/ingressclasses': {
    columns: [nameColumn, column('Controller', 'string', 'Controller that is responsible for handling this class'), column('Parameters', 'string', 'A reference to a resource with additional parameters'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<IngressClass>(stored);
      const p = o.spec?.parameters;
      const params = p ? `${p.apiGroup ? `${p.kind}.${p.apiGroup}` : p.kind}/${p.name}` : '<none>';
      return [o.metadata.name, o.spec?.controller ?? '', params, age(o.metadata.creationTimestamp, now)];
    },
  },
  'networking.k8s.io/networkpolicies': {
    columns: [nameColumn, column('Pod-Selector', 'string', 'Label selector of the pods this policy applies to.'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<NetworkPolicy>(stored);
      return [o.metadata.name, labelSelectorToString(o.spec?.podSelector) || '<none>', age(o.metadata.creationTimestamp, now)];
    },
  },
  'scheduling.k8s.io/priorityclasses': {
    columns: [nameColumn, column('Value', 'integer', 'The value of this priority class.'), column('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority.'), ageColumn, column('PreemptionPolicy', 'string', 'PreemptionPolicy is the Policy for preempting pods with lower priority.')],
    cells: (o, now) => [o.metadata.name, o.value ?? 0, o.globalDefault ?? false, age(o.metadata.creationTimestamp, now), o.preemptionPolicy ?? ''],
  },
  'node.k8s.io/runtimeclasses': {
    columns: [nameColumn, column('Handler', 'string', 'Handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.'), ageColumn],
    cells: (o, now) => [o.metadata.name, o.handler ?? '', age(o.metadata.creationTimestamp, now)],
  },
  '/podtemplates': {
    columns: [nameColumn, column('Containers', 'string', 'Names of each container in the template.'), column('Images', 'string', 'Images referenced by each container in the template.'), column('Pod Labels', 'string', 'The labels for the pod template.')],
    cells: (stored) => {
      const o = asStored<PodTemplate>(stored);
      const containers: Container[] = o.template?.spec?.containers ?? [];
      const labels = Object.entries(o.template?.metadata?.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
      return [o.metadata.name, containers.map((c) => c.name).join(','), containers.map((c) => c.image).join(','), labels || '<none>'];
    },
  },
  '/componentstatuses': {
    columns: [nameColumn, column('Status', 'string', 'Status of the component conditions'), column('Message', 'string', 'Message of the component conditions'), column('Error', 'string', 'Error of the component conditions')],
    cells: (stored) => {
      const o = asStored<ComponentStatus>(stored);
      const c = (o.conditions ?? []).find((x: ComponentCondition) => x.type === 'Healthy');
      return [o.metadata.name, c?.status === 'True' ? 'Healthy' : 'Unhealthy', c?.message ?? '', c?.error ?? ''];
    },
  },
  'apiregistration.k8s.io/apiservices': {
    columns: [nameColumn, column('Service', 'string', 'The reference to the service that hosts this API endpoint.'), column('Available', 'string', 'Whether this service is available.'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<APIService>(stored);
      const svc = o.spec?.service;
      const c = (o.status?.conditions ?? []).find((x: Condition) => x.type === 'Available');
      const available = !c ? 'Unknown' : c.status === 'True' ? 'True' : `${c.status} (${c.reason})`;
      return [o.metadata.name, svc ? `${svc.namespace}/${svc.name}` : 'Local', available, age(o.metadata.creationTimestamp, now)];
    },
  },
  'flowcontrol.apiserver.k8s.io/flowschemas': {
    columns: [nameColumn, column('PriorityLevel', 'string', "priorityLevelConfiguration is a reference to the priority level configuration that this flow schema belongs to."), column('MatchingPrecedence', 'string', 'matchingPrecedence is used to choose among the FlowSchemas that match a given request.'), column('DistinguisherMethod', 'string', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema.'), ageColumn, column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration')],
    cells: (stored, now) => {
      const o = asStored<FlowSchema>(stored);
      const dangling = (o.status?.conditions ?? []).find((x: FlowSchemaCondition) => x.type === 'Dangling');
      return [o.metadata.name, o.spec?.priorityLevelConfiguration?.name ?? '', String(o.spec?.matchingPrecedence ?? 1000), o.spec?.distinguisherMethod?.type ?? '<none>', age(o.metadata.creationTimestamp, now), dangling?.status ?? '?'];
    },
  },
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': {
    columns: [nameColumn, column('Type', 'string', '`type` indicates whether this priority level is subject to limitation on request execution.'), column('NominalConcurrencyShares', 'string', 'nominalConcurrencyShares (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.'), column('Queues', 'string', '`queues` is the number of queues for this priority level.'), column('HandSize', 'string', '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.'), column('QueueLengthLimit', 'string', '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time.'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<PriorityLevelConfiguration>(stored);
      const limited = o.spec?.limited;
      const queuing = limited?.limitResponse?.queuing;
      const none = '<none>';
      return [o.metadata.name, o.spec?.type ?? '', limited ? String(limited.nominalConcurrencyShares ?? 30) : none, queuing ? String(queuing.queues) : none, queuing ? String(queuing.handSize) : none, queuing ? String(queuing.queueLengthLimit) : none, age(o.metadata.creationTimestamp, now)];
    },
  },
  'apps/controllerrevisions': {
    columns: [nameColumn, column('Controller', 'string', 'Controller of the object.'), column('Revision', 'integer', 'Revision of the ControllerRevision'), ageColumn],
    cells: (o, now) => {
      const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller);
      const controller = owner ? `${owner.kind.toLowerCase()}.${String(owner.apiVersion).split('/').length > 1 ? String(owner.apiVersion).split('/')[0] : ''}/${owner.name}`.replace('./', '/') : '<none>';
      return [o.metadata.name, controller, o.revision ?? 0, age(o.metadata.creationTimestamp, now)];
    },
  },
  'storage.k8s.io/csinodes': {
    columns: [nameColumn, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<CSINode>(stored);
      return [o.metadata.name, (o.spec?.drivers ?? []).length, age(o.metadata.creationTimestamp, now)];
    },
  },
  'storage.k8s.io/volumeattachments': {
    columns: [nameColumn, column('Attacher', 'string', 'Attacher indicates the name of the volume driver that MUST handle this request.'), column('PV', 'string', 'PV indicates the name of the PersistentVolume to attach.'), column('Node', 'string', 'The node that the volume should be attached to.'), column('Attached', 'boolean', 'Attached indicates the volume is successfully attached.'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<VolumeAttachment>(stored);
      return [o.metadata.name, o.spec?.attacher ?? '', o.spec?.source?.persistentVolumeName ?? '', o.spec?.nodeName ?? '', o.status?.attached ?? false, age(o.metadata.creationTimestamp, now)];
    },
  },
  'storage.k8s.io/csidrivers': {
    columns: [nameColumn, column('AttachRequired', 'boolean', 'Indicates this CSI volume driver requires an attach operation.'), column('PodInfoOnMount', 'boolean', 'Indicates this CSI volume driver requires additional pod information during mount operations.'), column('StorageCapacity', 'boolean', 'Indicates this CSI volume driver reports storage capacity.'), column('TokenRequests', 'string', 'Indicates the CSI driver wants pod service account tokens.'), column('RequiresRepublish', 'boolean', 'Indicates the CSI driver wants NodePublishVolume periodically called.'), column('Modes', 'string', 'Volume lifecycle modes supported by the driver.'), ageColumn],
    cells: (stored, now) => {
      const o = asStored<CSIDriver>(stored);
      return [o.metadata.name, o.spec?.attachRequired ?? true, o.spec?.podInfoOnMount ?? false, o.spec?.storageCapacity ?? false, (o.spec?.tokenRequests ?? []).map((t: TokenRequest) => t.audience).join(',') || '<unset>', o.spec?.requiresRepublish ?? false, (o.spec?.volumeLifecycleModes ?? []).join(',') || '<none>', age(o.metadata.creationTimestamp, now)];
    },
  },
};

/** The simple field defaults the 1.32 defaulters (pkg/apis/<group>/v1/defaults.go) give these kinds. */
const defaults: Record<string, (o: KubeObject) => void> = {
  'networking.k8s.io/networkpolicies': (o) => {
    o.spec ??= {};
    const spec = asStored<NetworkPolicy>(o).spec!;
    spec.podSelector ??= {};
    for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const p of rule?.ports ?? []) p.protocol ??= 'TCP';
    if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
  },
  'scheduling.k8s.io/priorityclasses': (o) => {
    o.preemptionPolicy ??= 'PreemptLowerPriority';
  },
  'networking.k8s.io/ingresses': (o) => {
    o.status ??= {};
    asStored<Ingress>(o).status!.loadBalancer ??= {};
  },
  'storage.k8s.io/csidrivers': (o) => {
    o.spec ??= {};
    const spec: Partial<CSIDriverSpec> = asStored<CSIDriver>(o).spec!;
    spec.attachRequired ??= true;
    spec.podInfoOnMount ??= false;
    spec.storageCapacity ??= false;
    spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
    spec.requiresRepublish ??= false;
    spec.seLinuxMount ??= false;
    spec.volumeLifecycleModes ??= ['Persistent'];
  },
  'flowcontrol.apiserver.k8s.io/flowschemas': (o) => {
    o.spec ??= {};
    asStored<FlowSchema>(o).spec!.matchingPrecedence ??= 1000;
  },
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': (o) => {
    const limited = asStored<PriorityLevelConfiguration>(o).spec?.limited;
    if (!limited) return;
    limited.nominalConcurrencyShares ??= 30;
    limited.lendablePercent ??= 0;
    const queuing = limited.limitResponse?.type === 'Queue' ? (limited.limitResponse.queuing ??= {}) : undefined;
    if (queuing) {
      queuing.queues ??= 64;
      queuing.handSize ??= 8;
      queuing.queueLengthLimit ??= 50;
    }
  },
  '/podtemplates': (o) => {
    const spec = asStored<PodTemplate>(o).template?.spec;
    if (!spec) return;
    spec.restartPolicy ??= 'Always';
    spec.terminationGracePeriodSeconds ??= 30;
    spec.dnsPolicy ??= 'ClusterFirst';
    spec.securityContext ??= {};
    spec.schedulerName ??= 'default-scheduler';
    for (const c of spec.containers ?? []) {
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      c.imagePullPolicy ??= /:latest$|^[^:]*$/.test(String(c.image ?? '')) ? 'Always' : 'IfNotPresent';
      c.resources ??= {};
    }
  },
};

/** Kind-specific checks of 1.32 validation beyond what the schema says. */
const checks: Record<string, (o: KubeObject, old?: KubeObject) => FieldError[]> = {
  'apiregistration.k8s.io/apiservices': (o) => {
    const errs: FieldError[] = [];
    const spec = asStored<APIService>(o).spec ?? {};
    if (o.metadata.name !== `${spec.version ?? ''}.${spec.group ?? ''}`) errs.push(invalid('metadata.name', o.metadata.name, 'must be `spec.version+"."+spec.group`'));
    const gpm = spec.groupPriorityMinimum ?? 0;
    if (gpm <= 0) errs.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
    if (gpm >= 20000) errs.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
    const vp = spec.versionPriority ?? 0;
    if (vp <= 0) errs.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
    if (vp >= 1000) errs.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
    if (!spec.version) errs.push(required('spec.version'));
    return errs;
  },
  'scheduling.k8s.io/priorityclasses': (o, old) => {
    const errs: FieldError[] = [];
    const name = String(o.metadata.name ?? '');
    const system: Record<string, number> = { 'system-cluster-critical': 2000000000, 'system-node-critical': 2000001000 };
    if (name.startsWith('system-')) {
      const reason = system[name] === undefined ? `${name} is not a known system priority class` : system[name] !== o.value ? `value of ${name} PriorityClass must be ${system[name]}` : undefined;
      if (reason) errs.push(forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${reason}`));
    } else if (typeof o.value === 'number' && o.value > 1000000000) {
      errs.push(forbidden('value', 'maximum allowed value of a user defined priority is 1000000000'));
    }
    const preemptionPolicy = asStored<PriorityClass>(o).preemptionPolicy;
    if (preemptionPolicy !== undefined && !['Never', 'PreemptLowerPriority'].includes(preemptionPolicy)) errs.push(notSupported('preemptionPolicy', preemptionPolicy, ['Never', 'PreemptLowerPriority']));
    if (old && o.value !== old.value) errs.push(forbidden('value', 'may not be changed in an update.'));
    if (old && o.preemptionPolicy !== old.preemptionPolicy) errs.push(invalid('preemptionPolicy', o.preemptionPolicy, 'field is immutable'));
    return errs;
  },
  'networking.k8s.io/ingresses': (o) => {
    const errs: FieldError[] = [];
    const types = ['Exact', 'ImplementationSpecific', 'Prefix'];
    (asStored<Ingress>(o).spec?.rules ?? []).forEach((rule: IngressRule | undefined, i: number) => {
      (rule?.http?.paths ?? []).forEach((p: HTTPIngressPath | undefined, j: number) => {
        const at = `spec.rules[${i}].http.paths[${j}]`;
        if (p?.pathType && !types.includes(p.pathType)) errs.push(notSupported(`${at}.pathType`, p.pathType, types));
        if ((p?.pathType === 'Prefix' || p?.pathType === 'Exact') && !String(p.path ?? '').startsWith('/')) errs.push(invalid(`${at}.path`, p.path ?? '', 'must be an absolute path'));
      });
    });
    return errs;
  },
  'networking.k8s.io/networkpolicies': (o) => {
    const errs: FieldError[] = [];
    const policyTypes = ['Egress', 'Ingress'];
    const spec = asStored<NetworkPolicy>(o).spec;
    (spec?.policyTypes ?? []).forEach((t: unknown, i: number) => {
      if (!policyTypes.includes(t as string)) errs.push(notSupported(`spec.policyTypes[${i}]`, t, policyTypes));
    });
    for (const direction of ['ingress', 'egress'] as const) {
      (spec?.[direction] ?? []).forEach((rule: NetworkPolicyIngressRule | NetworkPolicyEgressRule | undefined, i: number) => {
        (rule?.ports ?? []).forEach((port: NetworkPolicyPort | undefined, j: number) => {
          if (port?.protocol !== undefined && !['SCTP', 'TCP', 'UDP'].includes(port.protocol)) errs.push(notSupported(`spec.${direction}[${i}].ports[${j}].protocol`, port.protocol, ['SCTP', 'TCP', 'UDP']));
        });
      });
    }
    return errs;
  },
};

/** Name rules other than DNS-1123 subdomain. */
const nameRules: Record<string, NameRule> = {
  'apiregistration.k8s.io/apiservices': 'path-segment',
  'flowcontrol.apiserver.k8s.io/flowschemas': 'path-segment',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': 'path-segment',
};

/** Kinds whose `spec` changes bump metadata.generation (their strategies set Generation). */
const withGeneration = new Set(['networking.k8s.io/ingresses', 'networking.k8s.io/ingressclasses', 'networking.k8s.io/networkpolicies', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', '/replicationcontrollers', 'policy/poddisruptionbudgets', 'flowcontrol.apiserver.k8s.io/flowschemas', 'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations', 'admissionregistration.k8s.io/validatingadmissionpolicies', 'admissionregistration.k8s.io/validatingadmissionpolicybindings', 'autoscaling/horizontalpodautoscalers']);

/** Where the generic kinds with a `scale` subresource keep replicas (a LabelSelector, or none for a map). */
const scales: Record<string, ScaleSubresource> = {
  'apps/replicasets': { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' },
  'apps/statefulsets': { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' },
  '/replicationcontrollers': { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
};

/**
 * Required string fields the schema states, missing or empty (`spec.rules[0].http.paths[0].pathType:
 * Required value`); objects and numbers are left alone, as their zero values are often valid.
 */
export function missingRequiredStrings(value: unknown, schema: Schema | undefined, path: string, depth = 0): FieldError[] {
  if (!schema || depth > 20 || value === null || typeof value !== 'object') return [];
  const resolved = (s: Schema): Schema | undefined => {
    const name = referencedName(s);
    return name ? builtinDefinition(name) : s;
  };
  const errs: FieldError[] = [];
  if (Array.isArray(value)) {
    const items = schema.items && resolved(schema.items);
    value.forEach((v, i) => errs.push(...missingRequiredStrings(v, items, `${path}[${i}]`, depth + 1)));
    return errs;
  }
  const record = value as Record<string, unknown>;
  const at = (k: string): string => (path ? `${path}.${k}` : k);
  for (const field of schema.required ?? []) {
    const prop = schema.properties?.[field];
    const target = prop && resolved(prop);
    if (target?.type === 'string' && (record[field] === undefined || record[field] === null || record[field] === '')) errs.push(required(at(field)));
  }
  for (const [k, v] of Object.entries(record)) {
    if (k === 'metadata' && depth === 0) continue;
    const prop = schema.properties?.[k];
    if (prop) errs.push(...missingRequiredStrings(v, resolved(prop), at(k), depth + 1));
  }
  return errs;
}

/** Fills the `default`s the schema carries (the `+default` markers defaulter-gen applies) at every depth. */
export function applySchemaDefaults(value: unknown, schema: Schema | undefined, depth = 0): void {
  if (!schema || depth > 30 || value === null || typeof value !== 'object') return;
  const resolved = (s: Schema): Schema | undefined => {
    const name = referencedName(s);
    return name ? builtinDefinition(name) : s;
  };
  if (Array.isArray(value)) {
    const items = schema.items && resolved(schema.items);
    for (const v of value) applySchemaDefaults(v, items, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [k, prop] of Object.entries(schema.properties ?? {}) as Array<[string, Schema]>) {
    if (record[k] === undefined && prop.default !== undefined) record[k] = copyObject(prop.default);
    if (record[k] !== undefined) applySchemaDefaults(record[k], resolved(prop), depth + 1);
  }
}

const keyOf = (group: string, resource: string): string => `${group}/${resource}`;

/** The generic kind of one table row at one of its versions. */
export function genericKind(row: ApiResourceRow, version: string): ResourceType {
  const key = keyOf(row.group, row.resource);
  const definition = definitionName(row.group, version, row.kind);
  const schema = builtinDefinition(definition);
  const fields = Object.keys(schema?.properties ?? {}).filter((f) => !['apiVersion', 'kind', 'metadata'].includes(f));
  const status = row.subresources.includes('status');
  const setDefaults = defaults[key];
  const check = checks[key];
  const validate = (o: KubeObject, old?: KubeObject): FieldError[] => [...missingRequiredStrings(o, schema, ''), ...(check?.(o, old) ?? [])];
  const strategy: ResourceStrategy = {
    prepareForCreate(o) {
      if (status) o.status = {};
      applySchemaDefaults(o, schema);
      setDefaults?.(o);
    },
    prepareForUpdate(o) {
      applySchemaDefaults(o, schema);
      setDefaults?.(o);
    },
    validateCreate: (o) => validate(o),
    validateUpdate: (o, old) => validate(o, old),
  };
  const kind = defineKind({
    group: row.group,
    version,
    resource: row.resource,
    kind: row.kind,
    namespaced: row.namespaced,
    shortNames: row.shortNames,
    categories: row.categories,
    verbs: row.verbs,
    ...(nameRules[key] ? { nameRule: nameRules[key] } : {}),
    statusSubresource: status,
    otherSubresources: row.subresources.filter((s) => s !== 'status' && s !== 'scale'),
    hasGeneration: withGeneration.has(key),
    fields: fields.length ? fields : ['spec'],
    ...(tables[key] ? { table: tables[key] } : {}),
    strategy,
  });
  const scale = row.subresources.includes('scale') ? scales[key] : undefined;
  return scale ? { ...kind, scale } : kind;
}

/** Every version of every table row as a generic kind, in table order (preferred version first). */
export function genericKinds(): ResourceType[] {
  return apiResources.flatMap((row) => row.versions.map((v) => genericKind(row, v)));
}
