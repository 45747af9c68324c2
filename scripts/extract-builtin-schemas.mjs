#!/usr/bin/env node
// Builds src/cluster/schemas/builtin-definitions.generated.ts: the OpenAPI v3 schemas of the built-in kinds
// the local cluster serves, and of every definition reachable from them, for deep field validation, wrong-type
// decoding errors and `kubectl explain`.
//
// Source: Kubernetes v1.32.0's OpenAPI spec, as carried by @kubernetes/client-node@1.1.2 (its models are
// generated from that spec by openapi-generator: "OpenAPI spec version: v1.32.0" in every model file). From
// each model it takes the field names, JSON types and formats (`attributeTypeMap` in dist/gen/models/*.js),
// which fields are required (no `?` in the .d.ts) and the descriptions (the doc comments of the .d.ts).
// openapi-generator loses three things, restored here from other sources:
//   - the definition's full name (io.k8s.api.<group>.v1.<Kind>): the group comes from the client-node name
//     prefix (CoreV1Event) or from the module kubernetes-types (installed) declares the type in;
//   - resource.Quantity (client-node types it as string; the API server also takes a number): the fields
//     whose kubernetes-types type mentions Quantity;
//   - paragraph breaks and enums: openapi-generator folds descriptions onto one line and drops the
//     "Possible enum values" lists. Given the models of kubernetes-models@4.5.1 (Kubernetes v1.33.0) and
//     @kubernetes-models/apimachinery@2.2.0, a description is taken in their layout — and a string field
//     gets their enum — only where their text, without that list and with white space folded, is the
//     v1.32 text word for word (so a field documented differently in v1.33 keeps its v1.32 text, no enum);
//   - the descriptions of fields typed by another definition, which openapi-generator drops: taken from
//     kubernetes-models (v1.33), the only text at hand (else kubectl explain prints <no description>).
//   - x-kubernetes-list-type/-list-map-keys/-map-type, patch strategies and `+default` values: from the
//     marker table below (transcribed from the v1.32 Go types), the patch strategies checked against the
//     struct tags compiled into kubectl 1.32 (`--kubectl <binary>`); x-kubernetes-group-version-kind from
//     the list of served kinds. Not carried: the zero-value defaults (`default: {}`/`""`) kube-openapi
//     adds to non-pointer fields.
//
// Usage:
//   cd /tmp && npm pack @kubernetes/client-node@1.1.2 kubernetes-models@4.5.1 @kubernetes-models/apimachinery@2.2.0
//   for f in *.tgz; do mkdir -p "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done
//   node scripts/extract-builtin-schemas.mjs /tmp/kubernetes-client-node-1.1.2/package \
//     /tmp/kubernetes-models-4.5.1/package /tmp/kubernetes-models-apimachinery-2.2.0/package \
//     --kubectl /usr/lib/google-cloud-sdk/bin/kubectl.1.32
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kubectlFlag = process.argv.indexOf('--kubectl');
const kubectlBinary = kubectlFlag > 0 ? process.argv[kubectlFlag + 1] : undefined;
const [clientNode, modelsDir133, apimachineryDir133] = process.argv.slice(2).filter((a, i, all) => a !== '--kubectl' && all[i - 1] !== '--kubectl');
if (!clientNode) {
  console.error('usage: node scripts/extract-builtin-schemas.mjs <@kubernetes/client-node@1.1.2 folder> [<kubernetes-models@4.5.1 folder> <@kubernetes-models/apimachinery@2.2.0 folder>]');
  process.exit(2);
}
const modelsDir = path.join(clientNode, 'dist', 'gen', 'models');
const version = JSON.parse(fs.readFileSync(path.join(clientNode, 'package.json'), 'utf8')).version;
const specVersion = /OpenAPI spec version: (v[\d.]+)/.exec(fs.readFileSync(path.join(modelsDir, 'V1Pod.d.ts'), 'utf8'))?.[1];
if (specVersion !== 'v1.32.0') console.warn(`warning: client-node ${version} models come from OpenAPI ${specVersion}, not v1.32.0`);

/** The kinds the local cluster serves (client-node model names → group, as in their definition names). */
const roots = {
  V1Namespace: 'core', V1Pod: 'core', V1Node: 'core', CoreV1Event: 'core', V1ConfigMap: 'core', V1Secret: 'core',
  V1ServiceAccount: 'core', V1Service: 'core', V1Job: 'batch', V1CronJob: 'batch', V1Lease: 'coordination',
  V1Role: 'rbac', V1ClusterRole: 'rbac', V1RoleBinding: 'rbac', V1ClusterRoleBinding: 'rbac',
  V1CustomResourceDefinition: 'apiextensions', EventsV1Event: 'events', V1Deployment: 'apps',
  V1SubjectAccessReview: 'authorization', V1SelfSubjectAccessReview: 'authorization', V1SelfSubjectRulesReview: 'authorization',
  V1LocalSubjectAccessReview: 'authorization', V1SelfSubjectReview: 'authentication', V1TokenReview: 'authentication',
  AuthenticationV1TokenRequest: 'authentication', V1MutatingWebhookConfiguration: 'admissionregistration',
  V1ValidatingWebhookConfiguration: 'admissionregistration', V1Scale: 'autoscaling',
  // Every other root kind a default 1.32 kube-apiserver serves (src/cluster/registry/builtin/api-resources.ts).
  V1Binding: 'core', V1ComponentStatus: 'core', V1Endpoints: 'core', V1LimitRange: 'core', V1PersistentVolumeClaim: 'core',
  V1PersistentVolume: 'core', V1PodTemplate: 'core', V1ReplicationController: 'core', V1ResourceQuota: 'core',
  V1ValidatingAdmissionPolicy: 'admissionregistration', V1ValidatingAdmissionPolicyBinding: 'admissionregistration',
  V1APIService: 'apiregistration', V1ControllerRevision: 'apps', V1DaemonSet: 'apps', V1ReplicaSet: 'apps', V1StatefulSet: 'apps',
  V1HorizontalPodAutoscaler: 'autoscaling', V2HorizontalPodAutoscaler: 'autoscaling', V1CertificateSigningRequest: 'certificates',
  V1EndpointSlice: 'discovery', V1FlowSchema: 'flowcontrol', V1PriorityLevelConfiguration: 'flowcontrol', V1IngressClass: 'networking',
  V1Ingress: 'networking', V1NetworkPolicy: 'networking', V1RuntimeClass: 'node', V1PodDisruptionBudget: 'policy', V1Eviction: 'policy',
  V1PriorityClass: 'scheduling', V1CSIDriver: 'storage', V1CSINode: 'storage', V1CSIStorageCapacity: 'storage', V1StorageClass: 'storage',
  V1VolumeAttachment: 'storage',
};

// ---- kubernetes-types: which group declares a type name, and which fields are Quantities ----
const kt = path.join(repoRoot, 'node_modules', 'kubernetes-types');
/** type name → groups (module folder names) declaring it. */
const groupsOf = new Map();
/** `<group>.<Type>.<field>` → true when the field's type mentions Quantity. */
const quantityFields = new Set();
for (const group of fs.readdirSync(kt)) {
  for (const file of [path.join(kt, group, 'v1.d.ts'), path.join(kt, group, 'v2.d.ts')]) {
  if (!fs.existsSync(file)) continue;
  const declaresGroups = file.endsWith('v1.d.ts');
  let current;
  let lastField;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const iface = /^export interface (\w+)/.exec(line);
    if (iface) {
      current = iface[1];
      if (!declaresGroups) continue;
      if (!groupsOf.has(current)) groupsOf.set(current, []);
      groupsOf.get(current).push(group);
      continue;
    }
    // A field's type may span lines (`limits?: {` / `[name: string]: Quantity;` / `};`).
    const field = /^\s+(\w+)\??: (.*)$/.exec(line);
    if (field) lastField = field[1];
    if (current && lastField && /\bQuantity\b/.test(line) && !/^\s*(\*|\/\*\*)/.test(line)) quantityFields.add(`${group}.${current}.${lastField}`);
  }
  }
}

const prefixGroups = {
  Core: 'core', Events: 'events', Rbac: 'rbac', Authentication: 'authentication', Admissionregistration: 'admissionregistration',
  Apiextensions: 'apiextensions', Apiregistration: 'apiregistration', Storage: 'storage', Discovery: 'discovery', Flowcontrol: 'flowcontrol',
};

/** The definition name kube-apiserver uses for a type of `group`. */
function fullName(group, kind, version = 'v1') {
  if (group === 'meta') return `io.k8s.apimachinery.pkg.apis.meta.v1.${kind}`;
  if (group === 'apiextensions') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${kind}`;
  if (group === 'apiregistration') return `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.${kind}`;
  return `io.k8s.api.${group}.${version}.${kind}`;
}

/** client-node model name → { group, kind, version }; `referrerGroup` decides between groups and for types kubernetes-types lacks. */
function locate(model, referrerGroup) {
  const m = /^([A-Z][a-z]+)?V(\d)(\w+)$/.exec(model);
  if (!m) throw new Error(`unexpected model name ${model}`);
  const [, prefix, major, kind] = m;
  const version = `v${major}`;
  if (prefix) {
    if (!prefixGroups[prefix]) throw new Error(`unknown group prefix in ${model}`);
    return { group: prefixGroups[prefix], kind, version };
  }
  if (roots[model]) return { group: roots[model], kind, version };
  // client-node's only unprefixed V2 models are autoscaling/v2's.
  if (version === 'v2') return { group: 'autoscaling', kind, version };
  const candidates = groupsOf.get(kind) ?? [];
  const group = candidates.includes(referrerGroup) ? referrerGroup
    : candidates.includes('meta') ? 'meta'
      : candidates.includes('core') ? 'core'
        : candidates[0] ?? referrerGroup;
  return { group, kind, version };
}

// ---- client-node models ----
function readAttributes(model) {
  const js = fs.readFileSync(path.join(modelsDir, `${model}.js`), 'utf8');
  const m = new RegExp(`${model}\\.attributeTypeMap = (\\[[\\s\\S]*?\\n\\]);`).exec(js);
  return m ? JSON.parse(m[1]) : [];
}

function unescapeDoc(lines) {
  return lines.map((l) => l.replace(/^\s*\*\s?/, '')).join('\n').trim().replace(/\\(['"\\])/g, '$1');
}

/** Class description, and per field its description and whether it is required. */
function readDocs(model) {
  const dts = fs.readFileSync(path.join(modelsDir, `${model}.d.ts`), 'utf8').split('\n');
  const fields = {};
  let description;
  let doc = [];
  let inDoc = false;
  for (const line of dts) {
    const t = line.trim();
    if (t === '/**') { inDoc = true; doc = []; continue; }
    if (inDoc && t === '*/') { inDoc = false; continue; }
    if (inDoc) { doc.push(line); continue; }
    if (/^export declare class /.test(t)) description = unescapeDoc(doc);
    const field = /^'([^']+)'(\?)?: /.exec(t);
    if (field) fields[field[1]] = { description: unescapeDoc(doc), required: !field[2] };
    doc = [];
  }
  return { description, fields };
}

const definitions = {};
const queue = Object.keys(roots).map((model) => ({ model, referrerGroup: roots[model] }));
const seen = new Set();

const ref = (name) => ({ $ref: `#/components/schemas/${name}` });

/** One attribute type of client-node → an OpenAPI v3 schema (queueing referenced models). */
function typeSchema(type, format, group, ownerKind, field) {
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return { type: 'array', items: typeSchema(array[1], format, group, ownerKind, field) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return { type: 'object', additionalProperties: typeSchema(map[1], format, group, ownerKind, field) };
  if (quantityFields.has(`${group}.${ownerKind}.${field}`) && type === 'string') return ref('io.k8s.apimachinery.pkg.api.resource.Quantity');
  switch (type) {
    case 'string': return format ? { type: 'string', format } : { type: 'string' };
    case 'Date': case 'V1MicroTime': return { type: 'string', format: 'date-time' };
    case 'boolean': return { type: 'boolean' };
    case 'number': return /^int/.test(format) ? { type: 'integer', format } : { type: 'number', format: format || 'double' };
    case 'IntOrString': return ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString');
    case 'any': return { 'x-kubernetes-preserve-unknown-fields': true };
    default: {
      if (!fs.existsSync(path.join(modelsDir, `${type}.js`))) throw new Error(`unknown type ${type} of ${ownerKind}.${field}`);
      const target = locate(type, group);
      queue.push({ model: type, referrerGroup: group });
      return ref(fullName(target.group, target.kind, target.version));
    }
  }
}

while (queue.length) {
  const { model, referrerGroup } = queue.shift();
  const { group, kind, version: modelVersion } = locate(model, referrerGroup);
  const name = fullName(group, kind, modelVersion);
  if (seen.has(name)) continue;
  seen.add(name);
  const docs = readDocs(model);
  const schema = { description: docs.description, type: 'object' };
  const properties = {};
  const required = [];
  for (const a of readAttributes(model)) {
    const doc = docs.fields[a.name] ?? { description: '', required: false };
    let prop = typeSchema(a.type, a.format, group, kind, a.baseName);
    // kube-openapi wraps a described reference in allOf (a $ref has no siblings in OpenAPI 3.0).
    if (prop.$ref) prop = { allOf: [prop] };
    if (doc.description) prop.description = doc.description;
    properties[a.baseName] = prop;
    if (doc.required) required.push(a.baseName);
  }
  schema.properties = properties;
  if (required.length) schema.required = required;
  definitions[name] = schema;
}

// ---- kubernetes-models (v1.33): description layout and enums where the text is the v1.32 text ----
const modelFolders = {
  core: 'v1', batch: 'batch/v1', apps: 'apps/v1', coordination: 'coordination.k8s.io/v1', rbac: 'rbac.authorization.k8s.io/v1',
  events: 'events.k8s.io/v1', authorization: 'authorization.k8s.io/v1', authentication: 'authentication.k8s.io/v1',
  admissionregistration: 'admissionregistration.k8s.io/v1', autoscaling: 'autoscaling/v1', apiextensions: 'apiextensions.k8s.io/v1',
  'autoscaling.v2': 'autoscaling/v2', apiregistration: 'apiregistration.k8s.io/v1', certificates: 'certificates.k8s.io/v1',
  discovery: 'discovery.k8s.io/v1', flowcontrol: 'flowcontrol.apiserver.k8s.io/v1', networking: 'networking.k8s.io/v1',
  node: 'node.k8s.io/v1', policy: 'policy/v1', scheduling: 'scheduling.k8s.io/v1', storage: 'storage.k8s.io/v1',
};

/** The kubernetes-models .d.ts of a definition, or undefined. */
function modelFile(name) {
  const kind = name.slice(name.lastIndexOf('.') + 1);
  if (name.startsWith('io.k8s.apimachinery.pkg.apis.meta.v1.')) return apimachineryDir133 && path.join(apimachineryDir133, 'apis', 'meta', 'v1', `${kind}.d.ts`);
  const group = name.startsWith('io.k8s.apiextensions-apiserver.') ? 'apiextensions'
    : name.startsWith('io.k8s.kube-aggregator.') ? 'apiregistration' : name.split('.')[3];
  const folder = modelFolders[`${group}.${name.split('.')[4]}`] ?? modelFolders[group];
  return modelsDir133 && folder && path.join(modelsDir133, folder, `${kind}.d.ts`);
}

/** From a kubernetes-models interface: its doc, and per field its doc and string-literal enum. */
function readModel(file, kind) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const doc = (from) => lines.slice(from.start, from.end).map((l) => l.replace(/^\s*\* ?/, '')).join('\n').trim().replace(/\\\*/g, '*');
  const fields = {};
  let description;
  let comment;
  let inside = false;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '/**') { comment = { start: i + 1 }; continue; }
    if (t === '*/' && comment) { comment.end = i; continue; }
    if (t === `export interface I${kind} {`) { inside = true; description = comment?.end ? doc(comment) : undefined; comment = undefined; continue; }
    if (inside && t === '}') break;
    const field = inside && /^"([^"]+)"\??: (.*);$/.exec(t);
    if (field) {
      const literals = /^(Array<)?((?:"[^"]*"(?: \| )?)+)(>)?$/.exec(field[2]);
      fields[field[1]] = {
        description: comment?.end ? doc(comment) : undefined,
        enum: literals ? { values: [...literals[2].matchAll(/"([^"]*)"/g)].map((m) => m[1]), list: Boolean(literals[1]) } : undefined,
      };
      comment = undefined;
    }
  }
  return { description, fields };
}

const fold = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
const withoutEnumList = (text) => text.replace(/\n\nPossible enum values:[\s\S]*$/, '');
let restored = 0;
let enums = 0;
let refDescriptions = 0;

/** `newer` when it says what `current` says (enum list aside), else `current`. */
function sameText(current, newer) {
  return newer !== undefined && fold(withoutEnumList(newer)) === fold(current) ? newer : undefined;
}

for (const [name, schema] of Object.entries(definitions)) {
  const file = modelFile(name);
  if (!file || !fs.existsSync(file)) continue;
  const model = readModel(file, name.slice(name.lastIndexOf('.') + 1));
  const typeDoc = sameText(schema.description, model.description);
  if (typeDoc) { schema.description = typeDoc; restored++; }
  for (const [field, prop] of Object.entries(schema.properties ?? {})) {
    const m = model.fields[field];
    // openapi-generator drops the description of a field whose type is another definition; v1.33's text is
    // the only one at hand for those (kubectl explain would otherwise print <no description>).
    if (prop.description === undefined && m?.description && (prop.allOf || prop.items?.$ref || prop.additionalProperties?.$ref)) {
      prop.description = m.description;
      refDescriptions++;
      continue;
    }
    const fieldDoc = sameText(prop.description, m?.description);
    if (!fieldDoc) continue;
    prop.description = fieldDoc;
    restored++;
    if (!m.enum) continue;
    const target = m.enum.list ? prop.items : prop;
    if (target?.type === 'string' && !target.format) { target.enum = m.enum.values; enums++; }
  }
}
if (modelsDir133) console.log(`kubernetes-models: ${restored} descriptions in their upstream layout, ${enums} enums, ${refDescriptions} descriptions of fields typed by another definition (missing from client-node)`);

// Definitions client-node models as plain values.
definitions['io.k8s.apimachinery.pkg.api.resource.Quantity'] = {
  description: 'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.',
  oneOf: [{ type: 'string' }, { type: 'number' }],
};
definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'] = {
  description: 'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
  format: 'int-or-string',
  oneOf: [{ type: 'integer' }, { type: 'string' }],
};

// ---- list/map types, patch strategies and defaults: the markers of k8s.io/api v0.32.0 ----
// Not in any of the packages above. Transcribed from the `+listType`, `+listMapKey`, `+mapType`, `+structType`,
// `+default` markers and `patchStrategy`/`patchMergeKey` struct tags of the v1.32 Go types (types.go of
// k8s.io/api core, apps, batch, rbac, admissionregistration, authentication, authorization, apiextensions
// and apimachinery meta/v1), for the definitions reachable from the served kinds only. The patch strategies
// are checked against the struct tags compiled into kubectl 1.32 when its binary is given (--kubectl).
// Syntax per field: `list=map(k1,k2)` | `list=set` | `list=atomic`, `map=atomic`, `patch=merge(key)` |
// `patch=merge,retainKeys(key)` | `patch=retainKeys` | `patch=merge` (no key: a list of scalars),
// `default=<json>`; `struct=atomic` on the definition itself (key `.`).
const atomicLists = (...fields) => Object.fromEntries(fields.map((f) => [f, 'list=atomic']));
const containerMarkers = {
  ...atomicLists('command', 'args', 'envFrom', 'resizePolicy'),
  ports: 'list=map(containerPort,protocol) patch=merge(containerPort)', env: 'list=map(name) patch=merge(name)',
  volumeMounts: 'list=map(mountPath) patch=merge(mountPath)', volumeDevices: 'list=map(devicePath) patch=merge(devicePath)',
};
const markers = {
  'meta.v1.ObjectMeta': { finalizers: 'list=set patch=merge', ownerReferences: 'list=map(uid) patch=merge(uid)', managedFields: 'list=atomic' },
  'meta.v1.OwnerReference': { '.': 'struct=atomic' },
  'meta.v1.LabelSelector': { '.': 'struct=atomic', matchExpressions: 'list=atomic' },
  'meta.v1.LabelSelectorRequirement': atomicLists('values'),
  'core.v1.PodSpec': {
    volumes: 'list=map(name) patch=merge,retainKeys(name)', initContainers: 'list=map(name) patch=merge(name)',
    containers: 'list=map(name) patch=merge(name)', ephemeralContainers: 'list=map(name) patch=merge(name)', nodeSelector: 'map=atomic',
    imagePullSecrets: 'list=map(name) patch=merge(name)', hostAliases: 'list=map(ip) patch=merge(ip)',
    topologySpreadConstraints: 'list=map(topologyKey,whenUnsatisfiable) patch=merge(topologyKey)',
    schedulingGates: 'list=map(name) patch=merge(name)', resourceClaims: 'list=map(name) patch=merge,retainKeys(name)',
    ...atomicLists('tolerations', 'readinessGates'),
  },
  'core.v1.Container': containerMarkers,
  'core.v1.EphemeralContainer': containerMarkers,
  'core.v1.ContainerPort': { protocol: 'default="TCP"' },
  'core.v1.ServicePort': { protocol: 'default="TCP"' },
  'core.v1.ServiceSpec': { ports: 'list=map(port,protocol) patch=merge(port)', selector: 'map=atomic', ...atomicLists('clusterIPs', 'externalIPs', 'ipFamilies', 'loadBalancerSourceRanges') },
  'core.v1.ServiceStatus': { conditions: 'list=map(type) patch=merge(type)' },
  'core.v1.LoadBalancerStatus': atomicLists('ingress'),
  'core.v1.LoadBalancerIngress': atomicLists('ports'),
  'core.v1.PodStatus': {
    conditions: 'list=map(type) patch=merge(type)', hostIPs: 'list=atomic patch=merge(ip)', podIPs: 'list=map(ip) patch=merge(ip)',
    resourceClaimStatuses: 'list=map(name) patch=merge,retainKeys(name)', ...atomicLists('initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'),
  },
  'core.v1.ContainerStatus': { volumeMounts: 'list=map(mountPath) patch=merge(mountPath)', allocatedResourcesStatus: 'list=map(name) patch=merge(name)' },
  'core.v1.ResourceStatus': { resources: 'list=map(resourceID)' },
  'core.v1.ResourceRequirements': { claims: 'list=map(name)' },
  'core.v1.PodSecurityContext': atomicLists('supplementalGroups', 'sysctls'),
  'core.v1.LinuxContainerUser': atomicLists('supplementalGroups'),
  'core.v1.Capabilities': atomicLists('add', 'drop'),
  'core.v1.PodDNSConfig': atomicLists('nameservers', 'searches', 'options'),
  'core.v1.HostAlias': atomicLists('hostnames'),
  'core.v1.ExecAction': atomicLists('command'),
  'core.v1.HTTPGetAction': atomicLists('httpHeaders'),
  'core.v1.NodeSelector': { '.': 'struct=atomic', nodeSelectorTerms: 'list=atomic' },
  'core.v1.NodeSelectorTerm': { '.': 'struct=atomic', ...atomicLists('matchExpressions', 'matchFields') },
  'core.v1.NodeSelectorRequirement': atomicLists('values'),
  'core.v1.NodeAffinity': atomicLists('preferredDuringSchedulingIgnoredDuringExecution'),
  'core.v1.PodAffinity': atomicLists('requiredDuringSchedulingIgnoredDuringExecution', 'preferredDuringSchedulingIgnoredDuringExecution'),
  'core.v1.PodAntiAffinity': atomicLists('requiredDuringSchedulingIgnoredDuringExecution', 'preferredDuringSchedulingIgnoredDuringExecution'),
  'core.v1.PodAffinityTerm': atomicLists('namespaces', 'matchLabelKeys', 'mismatchLabelKeys'),
  'core.v1.TopologySpreadConstraint': atomicLists('matchLabelKeys'),
  'core.v1.LocalObjectReference': { '.': 'struct=atomic' },
  'core.v1.ObjectReference': { '.': 'struct=atomic' },
  'core.v1.ConfigMapKeySelector': { '.': 'struct=atomic' },
  'core.v1.SecretKeySelector': { '.': 'struct=atomic' },
  'core.v1.ObjectFieldSelector': { '.': 'struct=atomic' },
  'core.v1.ResourceFieldSelector': { '.': 'struct=atomic' },
  'core.v1.ConfigMapVolumeSource': atomicLists('items'),
  'core.v1.SecretVolumeSource': atomicLists('items'),
  'core.v1.ConfigMapProjection': atomicLists('items'),
  'core.v1.SecretProjection': atomicLists('items'),
  'core.v1.DownwardAPIVolumeSource': atomicLists('items'),
  'core.v1.DownwardAPIProjection': atomicLists('items'),
  'core.v1.ProjectedVolumeSource': atomicLists('sources'),
  'core.v1.CephFSVolumeSource': atomicLists('monitors'),
  'core.v1.RBDVolumeSource': atomicLists('monitors'),
  'core.v1.ISCSIVolumeSource': atomicLists('portals'),
  'core.v1.FCVolumeSource': atomicLists('targetWWNs', 'wwids'),
  'core.v1.PersistentVolumeClaimSpec': atomicLists('accessModes'),
  'core.v1.NamespaceSpec': atomicLists('finalizers'),
  'core.v1.NamespaceStatus': { conditions: 'list=map(type) patch=merge(type)' },
  'core.v1.NodeSpec': { podCIDRs: 'list=set patch=merge', taints: 'list=atomic' },
  'core.v1.NodeStatus': {
    conditions: 'list=map(type) patch=merge(type)', addresses: 'list=map(type) patch=merge(type)',
    ...atomicLists('images', 'volumesInUse', 'volumesAttached', 'runtimeHandlers'),
  },
  'core.v1.ContainerImage': atomicLists('names'),
  'core.v1.ServiceAccount': { secrets: 'list=map(name) patch=merge(name)', imagePullSecrets: 'list=atomic' },
  'apps.v1.DeploymentSpec': { strategy: 'patch=retainKeys' },
  'apps.v1.DeploymentStatus': { conditions: 'list=map(type) patch=merge(type)' },
  'apps.v1.StatefulSetSpec': atomicLists('volumeClaimTemplates'),
  'apps.v1.StatefulSetStatus': { conditions: 'list=map(type) patch=merge(type)' },
  'apps.v1.DaemonSetStatus': { conditions: 'list=map(type) patch=merge(type)' },
  'core.v1.PersistentVolumeSpec': { ...atomicLists('accessModes', 'mountOptions') },
  'core.v1.PersistentVolumeClaimStatus': { ...atomicLists('accessModes'), conditions: 'list=map(type) patch=merge(type)' },
  'storage.v1.StorageClass': atomicLists('mountOptions', 'allowedTopologies'),
  'batch.v1.JobStatus': { conditions: 'list=atomic patch=merge(type)' },
  'batch.v1.CronJobStatus': atomicLists('active'),
  'batch.v1.PodFailurePolicy': atomicLists('rules'),
  'batch.v1.PodFailurePolicyRule': atomicLists('onPodConditions'),
  'batch.v1.PodFailurePolicyOnExitCodesRequirement': { values: 'list=set' },
  'batch.v1.SuccessPolicy': atomicLists('rules'),
  'batch.v1.UncountedTerminatedPods': { failed: 'list=set', succeeded: 'list=set' },
  'rbac.v1.Role': atomicLists('rules'),
  'rbac.v1.ClusterRole': atomicLists('rules'),
  'rbac.v1.RoleBinding': atomicLists('subjects'),
  'rbac.v1.ClusterRoleBinding': atomicLists('subjects'),
  'rbac.v1.PolicyRule': atomicLists('apiGroups', 'resources', 'resourceNames', 'nonResourceURLs', 'verbs'),
  'rbac.v1.AggregationRule': atomicLists('clusterRoleSelectors'),
  'admissionregistration.v1.MutatingWebhookConfiguration': { webhooks: 'list=map(name) patch=merge(name)' },
  'admissionregistration.v1.ValidatingWebhookConfiguration': { webhooks: 'list=map(name) patch=merge(name)' },
  'admissionregistration.v1.MutatingWebhook': { matchConditions: 'list=map(name) patch=merge(name)', ...atomicLists('rules', 'admissionReviewVersions') },
  'admissionregistration.v1.ValidatingWebhook': { matchConditions: 'list=map(name) patch=merge(name)', ...atomicLists('rules', 'admissionReviewVersions') },
  'admissionregistration.v1.RuleWithOperations': atomicLists('operations', 'apiGroups', 'apiVersions', 'resources'),
  'authentication.v1.UserInfo': atomicLists('groups'),
  'authentication.v1.TokenRequestSpec': atomicLists('audiences'),
  'authentication.v1.TokenReviewSpec': atomicLists('audiences'),
  'authentication.v1.TokenReviewStatus': atomicLists('audiences'),
  'authorization.v1.SubjectAccessReviewSpec': atomicLists('groups'),
  'authorization.v1.ResourceRule': atomicLists('verbs', 'apiGroups', 'resources', 'resourceNames'),
  'authorization.v1.NonResourceRule': atomicLists('verbs', 'nonResourceURLs'),
  'authorization.v1.SubjectRulesReviewStatus': atomicLists('resourceRules', 'nonResourceRules'),
  'authorization.v1.FieldSelectorAttributes': atomicLists('requirements'),
  'authorization.v1.LabelSelectorAttributes': atomicLists('requirements'),
  'authorization.v1.FieldSelectorRequirement': atomicLists('values'),
  'apiextensions.v1.CustomResourceDefinitionNames': atomicLists('shortNames', 'categories'),
  'apiextensions.v1.CustomResourceDefinitionSpec': atomicLists('versions'),
  'apiextensions.v1.CustomResourceDefinitionStatus': { conditions: 'list=map(type)', storedVersions: 'list=atomic' },
  'apiextensions.v1.CustomResourceDefinitionVersion': atomicLists('additionalPrinterColumns', 'selectableFields'),
  'apiextensions.v1.WebhookConversion': atomicLists('conversionReviewVersions'),
};

// LocalObjectReference's `+default=""` name, in it and in every type that inlines it.
for (const kind of ['LocalObjectReference', 'ConfigMapKeySelector', 'SecretKeySelector', 'ConfigMapEnvSource', 'SecretEnvSource', 'ConfigMapVolumeSource', 'ConfigMapProjection', 'SecretProjection']) {
  (markers[`core.v1.${kind}`] ??= {}).name = 'default=""';
}

/** The definition name of a marker table key (`core.v1.PodSpec`, `meta.v1.ObjectMeta`, `apiextensions.v1.…`). */
function markerDefinition(key) {
  const [group, version, kind] = key.split('.');
  return fullName(group, kind, version);
}

/** Patch strategy tags compiled into kubectl: `json name` → set of `strategy|key`. */
function kubectlPatchTags(binary) {
  const text = fs.readFileSync(binary).toString('latin1');
  const tags = new Map();
  for (const m of text.matchAll(/json:"([A-Za-z]+)[^"]*"((?: [a-zA-Z]+:"[^"]*")+)/g)) {
    const strategy = /patchStrategy:"([^"]*)"/.exec(m[2])?.[1];
    if (!strategy) continue;
    const key = /patchMergeKey:"([^"]*)"/.exec(m[2])?.[1] ?? '';
    if (!tags.has(m[1])) tags.set(m[1], new Set());
    tags.get(m[1]).add(`${strategy}|${key}`);
  }
  return tags;
}

const kubectlTags = kubectlBinary ? kubectlPatchTags(kubectlBinary) : undefined;
let markerCount = 0;
for (const [key, fields] of Object.entries(markers)) {
  const name = markerDefinition(key);
  const schema = definitions[name];
  if (!schema) throw new Error(`markers for ${key}: no definition ${name}`);
  for (const [field, spec] of Object.entries(fields)) {
    const target = field === '.' ? schema : schema.properties?.[field];
    if (!target) throw new Error(`markers for ${key}.${field}: no such field`);
    for (const token of spec.split(' ')) {
      const [, what, value] = /^(\w+)=(.*)$/.exec(token) ?? [];
      const withKeys = /^([\w,]+?)(?:\(([\w,]+)\))?$/.exec(value ?? '');
      if (what === 'list') {
        target['x-kubernetes-list-type'] = withKeys[1];
        if (withKeys[2]) target['x-kubernetes-list-map-keys'] = withKeys[2].split(',');
      } else if (what === 'map' || what === 'struct') target['x-kubernetes-map-type'] = value;
      else if (what === 'patch') {
        target['x-kubernetes-patch-strategy'] = withKeys[1];
        if (withKeys[2]) target['x-kubernetes-patch-merge-key'] = withKeys[2];
        if (kubectlTags && !kubectlTags.get(field)?.has(`${withKeys[1]}|${withKeys[2] ?? ''}`)) {
          throw new Error(`markers for ${key}.${field}: kubectl's struct tags have no patchStrategy "${withKeys[1]}" with merge key "${withKeys[2] ?? ''}"`);
        }
      } else if (what === 'default') target.default = JSON.parse(value);
      else throw new Error(`markers for ${key}.${field}: bad token ${token}`);
      markerCount++;
    }
  }
}
// A kubectl struct tag with a patch strategy on a field name the table never gives one: report it.
if (kubectlTags) {
  const given = new Set(Object.values(markers).flatMap((f) => Object.entries(f).filter(([, s]) => s.includes('patch=')).map(([n]) => n)));
  const unmatched = [...kubectlTags.keys()].filter((n) => !given.has(n));
  console.log(`kubectl struct tags: every patch strategy in the table matches; field names with a strategy not in the table (types not served): ${unmatched.join(', ')}`);
}
// The group-version-kind of every served kind, as kube-apiserver's definitions carry it.
const rootGroups = { core: '', events: 'events.k8s.io', rbac: 'rbac.authorization.k8s.io', apiextensions: 'apiextensions.k8s.io', coordination: 'coordination.k8s.io',
  authorization: 'authorization.k8s.io', authentication: 'authentication.k8s.io', admissionregistration: 'admissionregistration.k8s.io',
  apiregistration: 'apiregistration.k8s.io', certificates: 'certificates.k8s.io', discovery: 'discovery.k8s.io', flowcontrol: 'flowcontrol.apiserver.k8s.io',
  networking: 'networking.k8s.io', node: 'node.k8s.io', scheduling: 'scheduling.k8s.io', storage: 'storage.k8s.io' };
for (const [model, group] of Object.entries(roots)) {
  const { kind, version: rootVersion } = locate(model, group);
  definitions[fullName(group, kind, rootVersion)]['x-kubernetes-group-version-kind'] = [{ group: rootGroups[group] ?? group, kind, version: rootVersion }];
}
console.log(`markers: ${markerCount} extensions on ${Object.keys(markers).length} definitions`);

// A JS string literal's non-ASCII characters as \u escapes: a file of one-byte characters only decodes, hashes
// and compiles faster (jest does all three in every test file importing it).
const asciiOnly = (literal) => literal.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const sorted = Object.fromEntries(Object.keys(definitions).sort().map((k) => [k, definitions[k]]));
const out = path.join(repoRoot, 'src', 'cluster', 'schemas', 'builtin-definitions.generated.ts');
fs.mkdirSync(path.dirname(out), { recursive: true });
const header = `/**
 * GENERATED by scripts/extract-builtin-schemas.mjs - do not edit by hand.
 * OpenAPI v3 schemas of the built-in kinds the local cluster serves and of every definition reachable from
 * them, keyed by kube-apiserver's definition names. Source: Kubernetes ${specVersion} OpenAPI, as shipped in the
 * models of @kubernetes/client-node@${version} (names, JSON types, formats, required fields, descriptions);
 * groups of unprefixed names and Quantity fields from kubernetes-types${modelsDir133 ? `; paragraph breaks and
 * enums from kubernetes-models@4.5.1 (v1.33.0) where its description is the v1.32 text word for word, and from it
 * the descriptions client-node drops on fields typed by another definition` : ''}.
 * x-kubernetes-list-type/-list-map-keys/-map-type, patch strategies and +default values: transcribed from the
 * markers and struct tags of the v1.32 Go types (k8s.io/api v0.32.0)${kubectlBinary ? ', patch strategies checked against kubectl 1.32\'s compiled-in struct tags' : ''};
 * x-kubernetes-group-version-kind on the served kinds. Not carried: kube-openapi's zero-value defaults${modelsDir133 ? '' : ', enums, paragraph breaks'}.
 * One JSON string per definition, parsed on first use; ASCII only (\\u escapes), so the one-byte file reads and
 * compiles faster in each of the ~200 test files that import it.
 */
export const BUILTIN_DEFINITION_SOURCES: Record<string, string> = {
${Object.entries(sorted).map(([k, v]) => `  ${JSON.stringify(k)}: ${asciiOnly(JSON.stringify(JSON.stringify(v)))},`).join('\n')}
};
`;
fs.writeFileSync(out, header);
console.log(`wrote ${path.relative(repoRoot, out)}: ${Object.keys(sorted).length} definitions, ${header.length} bytes`);
