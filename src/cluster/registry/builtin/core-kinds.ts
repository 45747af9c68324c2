/**
 * Built-in kinds of the core group (v1): Namespace, ConfigMap, Secret, ServiceAccount, Pod, Event,
 * Node — their defaults, validation and table columns as kube-apiserver 1.32 has them.
 */
import type { ConfigMap, Container, ContainerStateTerminated, ContainerStatus, Namespace, Node, NodeAddress, NodeCondition, NodeSystemInfo, Pod, PodSpec, Secret, ServiceAccount, Toleration } from 'kubernetes-types/core/v1.js';
import { type FieldError, forbidden, invalid, notSupported, required, tooLong } from '../../errors/field-errors.js';
import { badRequest } from '../../errors/status-errors.js';
import type { KubeObject, Stored } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, nameColumn } from '../table-format.js';
import { canonicalJson } from '../system-metadata.js';
import { copyObject } from '../../store/copy-object.js';

const configKey = /^[-._a-zA-Z0-9]+$/;
const configKeyMessage =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/**
 * A ConfigMap's or a Secret's data maps, read through ConfigMap's type (a Secret has `data` and `immutable`
 * the same way, and no `binaryData`).
 */
const dataMaps = (o: KubeObject): Stored<ConfigMap> => asStored<ConfigMap>(o);

function validateDataKeys(stored: KubeObject): FieldError[] {
  const object = dataMaps(stored);
  const errs: FieldError[] = [];
  for (const field of ['data', 'binaryData'] as const) {
    for (const key of Object.keys(object[field] ?? {}).sort()) {
      if (!configKey.test(key)) errs.push(invalid(field, key, configKeyMessage));
    }
  }
  for (const key of Object.keys(object.data ?? {})) {
    if (object.binaryData && key in object.binaryData) errs.push(invalid('data', key, 'duplicate of key present in binaryData'));
  }
  return errs;
}

function validateImmutableData(stored: KubeObject, storedOld: KubeObject): FieldError[] {
  const object = dataMaps(stored);
  const old = dataMaps(storedOld);
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (JSON.stringify(object.data ?? null) !== JSON.stringify(old.data ?? null)) errs.push(forbidden('data', 'field is immutable when `immutable` is set'));
  if (JSON.stringify(object.binaryData ?? null) !== JSON.stringify(old.binaryData ?? null)) errs.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
  if (object.immutable !== true) errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  return errs;
}

/** core.MaxSecretSize: the most bytes a ConfigMap's or a Secret's values may hold together (1 MiB). */
const maxDataBytes = 1024 * 1024;

const byteLength = (values: Record<string, unknown> | undefined, encoding: 'utf8' | 'base64'): number =>
  Object.values(values ?? {}).reduce<number>((sum, v) => sum + (typeof v === 'string' ? Buffer.byteLength(v, encoding) : 0), 0);

/** ConfigMap data and binaryData (decoded) over 1 MiB: the whole object is too long (field path "", written `[]`). */
function validateConfigMapSize(o: KubeObject): FieldError[] {
  return byteLength(dataMaps(o).data, 'utf8') + byteLength(dataMaps(o).binaryData, 'base64') > maxDataBytes ? [tooLong('[]', maxDataBytes)] : [];
}

/** Secret data (decoded; stringData is folded in by then) over 1 MiB. */
function validateSecretSize(o: KubeObject): FieldError[] {
  return byteLength(asStored<Secret>(o).data, 'base64') > maxDataBytes ? [tooLong('data', maxDataBytes)] : [];
}

const countOf = (o: KubeObject): number => Object.keys(dataMaps(o).data ?? {}).length + Object.keys(dataMaps(o).binaryData ?? {}).length;

export const namespaces = defineKind({
  resource: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'label',
  statusSubresource: true,
  otherSubresources: ['finalize'],
  returnsDeletedObject: true,
  fields: ['spec', 'status'],
  table: {
    columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
    cells: (o, now) => [o.metadata.name, asStored<Namespace>(o).status?.phase ?? '', age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    prepareForCreate(o) {
      o.spec = { finalizers: ['kubernetes'], ...(o.spec ?? {}) };
      o.status = { phase: 'Active' };
      o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': o.metadata.name };
    },
    prepareForUpdate(o, old) {
      o.spec = o.spec ?? old.spec;
      o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': o.metadata.name };
    },
    fieldLabels: (o) => ({ 'status.phase': asStored<Namespace>(o).status?.phase ?? '', name: o.metadata.name }),
  },
});

export const configMaps = defineKind({
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  shortNames: ['cm'],
  fields: ['data:map', 'binaryData:map', 'immutable:boolean'],
  table: {
    columns: [nameColumn, column('Data', 'string', 'Data contains the configuration data.'), ageColumn],
    cells: (o, now) => [o.metadata.name, countOf(o), age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    validateCreate: (o) => [...validateDataKeys(o), ...validateConfigMapSize(o)],
    validateUpdate: (o, old) => [...validateDataKeys(o), ...validateConfigMapSize(o), ...validateImmutableData(o, old)],
  },
});

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const secrets = defineKind({
  resource: 'secrets',
  kind: 'Secret',
  namespaced: true,
  fields: ['data:map', 'stringData:map', 'type:string', 'immutable:boolean'],
  table: {
    columns: [nameColumn, column('Type', 'string', 'The type of secret'), column('Data', 'string', 'The number of entries in the secret'), ageColumn],
    cells: (o, now) => [o.metadata.name, asStored<Secret>(o).type ?? '', countOf(o), age(o.metadata.creationTimestamp, now)],
  },
  strategy: {
    prepareForCreate: normaliseSecret,
    prepareForUpdate: normaliseSecret,
    validateCreate: validateSecret,
    validateUpdate: (o, old) => {
      const errs = [...validateSecret(o), ...validateImmutableData(o, old)];
      const type = asStored<Secret>(o).type;
      if ((type ?? 'Opaque') !== (asStored<Secret>(old).type ?? 'Opaque')) errs.push(invalid('type', type, 'field is immutable'));
      return errs;
    },
    fieldLabels: (o) => ({ type: asStored<Secret>(o).type ?? '' }),
  },
});

function normaliseSecret(stored: KubeObject): void {
  const o = asStored<Secret>(stored);
  for (const v of Object.values(o.data ?? {})) {
    if (typeof v !== 'string' || !base64.test(v)) throw badRequest(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0`);
  }
  if (o.stringData) {
    o.data = { ...(o.data ?? {}) };
    for (const [k, v] of Object.entries(o.stringData)) o.data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    delete o.stringData;
  }
  o.type = o.type || 'Opaque';
}

function validateSecret(stored: KubeObject): FieldError[] {
  const errs = [...validateDataKeys(stored), ...validateSecretSize(stored)];
  const o = asStored<Secret>(stored);
  const data = o.data ?? {};
  if (o.type === 'kubernetes.io/tls') {
    if (!('tls.crt' in data)) errs.push(required('data[tls.crt]'));
    if (!('tls.key' in data)) errs.push(required('data[tls.key]'));
  }
  if (o.type === 'kubernetes.io/dockerconfigjson' && !('.dockerconfigjson' in data)) errs.push(required('data[.dockerconfigjson]'));
  // the token controller fills in the token; only the ServiceAccount's name is required
  if (o.type === 'kubernetes.io/service-account-token' && !o.metadata.annotations?.['kubernetes.io/service-account.name']) {
    errs.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
  }
  return errs;
}

export const serviceAccounts = defineKind({
  resource: 'serviceaccounts',
  kind: 'ServiceAccount',
  namespaced: true,
  shortNames: ['sa'],
  otherSubresources: ['token'],
  returnsDeletedObject: true,
  fields: ['secrets:list', 'imagePullSecrets:list', 'automountServiceAccountToken:boolean'],
  table: {
    columns: [nameColumn, column('Secrets', 'string', 'Secrets is the list of secrets allowed to be used by pods running using this ServiceAccount.'), ageColumn],
    cells: (o, now) => [o.metadata.name, (asStored<ServiceAccount>(o).secrets ?? []).length, age(o.metadata.creationTimestamp, now)],
  },
});

/**
 * What SetDefaults_Pod and v1 conversion add to pods only, never to templates (the `default` account, the
 * token volume, priority and preemptionPolicy come from the ServiceAccount and Priority admission plugins).
 */
function defaultPodOnly(spec: PodSpec): void {
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  spec.enableServiceLinks ??= true;
  defaultPodSpecFields(spec);
}

/** SetDefaults_PodSpec and the container defaults: what pods and pod templates share. */
function defaultPodSpecFields(spec: PodSpec): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    if (!c || typeof c !== 'object') continue;
    for (const port of Array.isArray(c.ports) ? c.ports : []) if (port && typeof port === 'object') port.protocol ??= 'TCP';
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    const image: string = c.image ?? '';
    const tagged = /:[^/]+$/.test(image) && !image.endsWith(':latest');
    c.imagePullPolicy ??= tagged || image.includes('@') ? 'IfNotPresent' : 'Always';
    c.resources ??= {};
    defaultProbesAndEnv(c);
  }
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) {
    for (const source of [v?.secret, v?.configMap, v?.downwardAPI, v?.projected]) if (source && typeof source === 'object') source.defaultMode ??= 420;
  }
}

/** SetDefaults_Probe, SetDefaults_HTTPGetAction and SetDefaults_ObjectFieldSelector for one container. */
function defaultProbesAndEnv(c: Container): void {
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (!probe || typeof probe !== 'object') continue;
    probe.timeoutSeconds ??= 1;
    probe.periodSeconds ??= 10;
    probe.successThreshold ??= 1;
    probe.failureThreshold ??= 3;
    if (probe.httpGet && typeof probe.httpGet === 'object') {
      probe.httpGet.path ??= '/';
      probe.httpGet.scheme ??= 'HTTP';
    }
  }
  for (const e of Array.isArray(c.env) ? c.env : []) if (e?.valueFrom?.fieldRef && typeof e.valueFrom.fieldRef === 'object') e.valueFrom.fieldRef.apiVersion ??= 'v1';
}

/** Pod template defaults (Job/CronJob/Deployment/ReplicaSet templates): the pod spec's, not the pod-only ones. */
export function defaultPodTemplate(template: { metadata?: object | null; spec?: PodSpec } | undefined): void {
  if (!template || typeof template !== 'object') return;
  // a template's ObjectMeta is a Go struct: its zero creationTimestamp always serialises as null
  if (template.metadata === undefined || (template.metadata && typeof template.metadata === 'object')) {
    template.metadata = { ...(template.metadata ?? {}), creationTimestamp: null };
  }
  if (template.spec && typeof template.spec === 'object') defaultPodSpecFields(template.spec);
}

/** Checks a pod spec at `path`; `restartPolicies` restricts restartPolicy (Jobs). */
export function validatePodSpec(spec: Partial<PodSpec> | undefined, path: string, restartPolicies = ['Always', 'OnFailure', 'Never']): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec || typeof spec !== 'object') return [required(path)];
  const containers: Container[] = Array.isArray(spec.containers) ? spec.containers : [];
  if (containers.length === 0) errs.push(required(`${path}.containers`));
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = `${path}.containers[${i}]`;
    if (!c?.name) errs.push(required(`${p}.name`));
    else if (names.has(c.name)) errs.push({ type: 'FieldValueDuplicate', field: `${p}.name`, value: c.name });
    else names.add(c.name);
    if (!c?.image) errs.push(required(`${p}.image`));
  });
  if (spec.restartPolicy === undefined) {
    if (restartPolicies.length < 3) errs.push(required(`${path}.restartPolicy`, `valid values: ${restartPolicies.map((r) => JSON.stringify(r)).join(', ')}`));
  } else if (!restartPolicies.includes(spec.restartPolicy)) {
    errs.push(notSupported(`${path}.restartPolicy`, spec.restartPolicy, restartPolicies));
  }
  return errs;
}

/**
 * The DefaultTolerationSeconds admission plugin: pods tolerate not-ready and unreachable nodes for
 * 300 s unless they say otherwise, so taint eviction gives them five minutes.
 */
function addDefaultTolerationSeconds(spec: PodSpec): void {
  const tolerations: Toleration[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']
    .filter((key) => !tolerations.some((t) => (t?.effect === 'NoExecute' || !t?.effect) && (t?.key === key || (!t?.key && t?.operator === 'Exists'))))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
  if (added.length) spec.tolerations = [...tolerations, ...added];
}

function qosClass(spec: PodSpec | undefined): string {
  const containers: Container[] = spec?.containers ?? [];
  const res = containers.map((c) => c?.resources ?? {});
  if (res.every((r) => !r.limits && !r.requests)) return 'BestEffort';
  const guaranteed = res.every((r) => r.limits?.cpu && r.limits?.memory && (!r.requests || (r.requests.cpu === r.limits.cpu && r.requests.memory === r.limits.memory)));
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** SetDefaults_Pod (pods only, not templates): a container's requests default to its limits. */
function defaultRequestsToLimits(spec: PodSpec): void {
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    const limits = c?.resources?.limits;
    if (!limits || typeof limits !== 'object') continue;
    for (const [k, v] of Object.entries(limits)) {
      const resources = c.resources!; // it holds the limits
      resources.requests ??= {};
      if (!(k in resources.requests)) resources.requests[k] = v;
    }
  }
}

/** The Ready, Status and Restarts cells as kubectl's printPod computes them (init containers first). */
function podTableStatus(o: Stored<Pod>, now: number): { ready: number; total: number; reason: string; restarts: string } {
  const statuses: ContainerStatus[] = o.status?.containerStatuses ?? [];
  const inits: ContainerStatus[] = o.status?.initContainerStatuses ?? [];
  const total = (o.spec?.containers ?? []).length;
  let reason: string = o.status?.reason ?? o.status?.phase ?? '';
  let restarts = 0;
  let lastRestart = 0;
  const noteRestart = (s: ContainerStatus): void => {
    restarts += s.restartCount ?? 0;
    const finished = s.lastState?.terminated?.finishedAt;
    if (finished) lastRestart = Math.max(lastRestart, Date.parse(finished));
  };
  const exitText = (t: ContainerStateTerminated): string => t.reason || (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`);
  let initializing = false;
  for (let i = 0; i < inits.length; i++) {
    const s = inits[i];
    noteRestart(s);
    if (s.state?.terminated && s.state.terminated.exitCode === 0) continue;
    initializing = true;
    if (s.state?.terminated) reason = `Init:${exitText(s.state.terminated)}`;
    else if (s.state?.waiting?.reason && s.state.waiting.reason !== 'PodInitializing') reason = `Init:${s.state.waiting.reason}`;
    else reason = `Init:${i}/${(o.spec?.initContainers ?? []).length}`;
    break;
  }
  let ready = 0;
  const initialized = (o.status?.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = 0;
    let hasRunning = false;
    for (let i = statuses.length - 1; i >= 0; i--) {
      const s = statuses[i];
      noteRestart(s);
      if (s.state?.waiting?.reason) reason = s.state.waiting.reason;
      else if (s.state?.terminated) reason = exitText(s.state.terminated);
      else if (s.ready && s.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = (o.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
  }
  if (o.metadata.deletionTimestamp) reason = o.status?.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  const restartsText = restarts !== 0 && lastRestart ? `${restarts} (${age(new Date(lastRestart).toISOString(), now)} ago)` : String(restarts);
  return { ready, total, reason, restarts: restartsText };
}

export const pods = defineKind({
  resource: 'pods',
  kind: 'Pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  statusSubresource: true,
  otherSubresources: ['log', 'binding', 'eviction'],
  returnsDeletedObject: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
      column('Status', 'string', 'The aggregate status of the containers in this pod.'),
      column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
      ageColumn,
      column('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
      column('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node.', 1),
      column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node.', 1),
      column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.', 1),
    ],
    cells: (o, now) => {
      const { ready, total, reason, restarts } = podTableStatus(o, now);
      const pod = asStored<Pod>(o);
      return [o.metadata.name, `${ready}/${total}`, reason, restarts, age(o.metadata.creationTimestamp, now), pod.status?.podIP ?? '<none>', pod.spec?.nodeName ?? '<none>', pod.status?.nominatedNodeName ?? '<none>', '<none>'];
    },
  },
  strategy: {
    prepareForCreate(o) {
      o.spec = o.spec ?? {};
      const spec = asStored<Pod>(o).spec!;
      defaultPodOnly(spec);
      defaultRequestsToLimits(spec);
      addDefaultTolerationSeconds(spec);
      o.status = { phase: 'Pending', qosClass: qosClass(spec) };
    },
    prepareForUpdate(o) {
      const spec = asStored<Pod>(o).spec;
      if (spec) defaultPodOnly(spec);
    },
    validateCreate: (o) => validatePodSpec(asStored<Pod>(o).spec, 'spec'),
    validateUpdate(o, old) {
      const errs = validatePodSpec(asStored<Pod>(o).spec, 'spec');
      const strip = (spec: PodSpec | undefined): string => {
        const copy: Partial<PodSpec> = copyObject(spec ?? {});
        for (const c of copy.containers ?? []) delete c.image;
        for (const c of copy.initContainers ?? []) delete c.image;
        delete copy.activeDeadlineSeconds;
        delete copy.tolerations;
        delete copy.schedulingGates;
        delete copy.nodeName;
        return canonicalJson(copy);
      };
      if (strip(asStored<Pod>(o).spec) !== strip(asStored<Pod>(old).spec)) {
        errs.push(
          forbidden(
            'spec',
            'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
          ),
        );
      }
      return errs;
    },
    fieldLabels: (stored) => podFieldLabels(asStored<Pod>(stored)),
  },
});

/** The pod fields a field selector may name. */
function podFieldLabels(o: Stored<Pod>): Record<string, string> {
  return {
    'spec.nodeName': o.spec?.nodeName ?? '',
    'spec.restartPolicy': o.spec?.restartPolicy ?? '',
    'spec.schedulerName': o.spec?.schedulerName ?? '',
    'spec.serviceAccountName': o.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': String(o.spec?.hostNetwork ?? false),
    'status.phase': o.status?.phase ?? '',
    'status.podIP': o.status?.podIP ?? '',
    'status.nominatedNodeName': o.status?.nominatedNodeName ?? '',
  };
}

export const nodes = defineKind({
  resource: 'nodes',
  kind: 'Node',
  namespaced: false,
  shortNames: ['no'],
  statusSubresource: true,
  returnsDeletedObject: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Status', 'string', 'The status of the node'),
      column('Roles', 'string', 'The roles of the node'),
      ageColumn,
      column('Version', 'string', 'Kubelet Version reported by the node.'),
      column('Internal-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node\'s address in its own status or consumers of the downward API (status.hostIP).', 1),
      column('External-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node\'s address in its own status or consumers of the downward API (status.hostIP).', 1),
      column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
      column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
      column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<Node>(stored);
      const conditions: NodeCondition[] = o.status?.conditions ?? [];
      const ready = conditions.find((c) => c.type === 'Ready');
      let status = conditions.length === 0 ? 'Unknown' : ready?.status === 'True' ? 'Ready' : 'NotReady';
      if (o.spec?.unschedulable) status += ',SchedulingDisabled';
      const labels: Record<string, string> = o.metadata.labels ?? {};
      const roles = Object.keys(labels)
        .flatMap((k) => (k.startsWith('node-role.kubernetes.io/') ? [k.slice('node-role.kubernetes.io/'.length)] : k === 'kubernetes.io/role' ? [labels[k]!] : []))
        .filter((r) => r !== '')
        .sort();
      const address = (type: string): string => ((o.status?.addresses ?? []) as NodeAddress[]).find((a) => a.type === type)?.address ?? '<none>';
      const info: Partial<NodeSystemInfo> = o.status?.nodeInfo ?? {};
      return [
        o.metadata.name, status, roles.length ? roles.join(',') : '<none>', age(o.metadata.creationTimestamp, now), info.kubeletVersion ?? '',
        address('InternalIP'), address('ExternalIP'), info.osImage || '<unknown>', info.kernelVersion || '<unknown>', info.containerRuntimeVersion || '<unknown>',
      ];
    },
  },
  strategy: { fieldLabels: (o) => ({ 'spec.unschedulable': String(asStored<Node>(o).spec?.unschedulable ?? false) }) },
});

export const coreKinds: ResourceType[] = [namespaces, configMaps, secrets, serviceAccounts, pods, nodes];
