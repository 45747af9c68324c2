#!/usr/bin/env node
// Builds src/generate/crd/known-types/catalogue.generated.ts: the pre-computed schemas of the Kubernetes
// types kubeforge users may reference (JobTemplateSpec, PodTemplateSpec, ObjectReference, Condition, ...),
// keyed `<group>/<version>.<Type>` as in kubernetes-types module paths.
//
// controller-gen derives these from the k8s.io/api Go sources; kubeforge cannot, so it takes them from real
// controller-gen v0.21.0 output: the controller-tools golden crd__testdata.kubebuilder.io_cronjobs.yaml (in
// ../shared/conformance, with descriptions) and scripts/known-types-sources/*.yaml. A node reached through a
// field carries that field's description, which is dropped (the user's field supplies its own); array items
// carry the item type's own doc, which becomes the type description. Types whose doc cannot be read from a
// golden get the doc comment of kubernetes-types (lines joined by spaces there).
//
// Usage: node scripts/extract-known-types.mjs [path/to/conformance]   (default ../shared/conformance)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const conformance = path.resolve(process.argv[2] ?? path.join(repoRoot, '..', 'shared', 'conformance'));
const goldenFile = path.join(conformance, 'controller-tools', 'crd__testdata.kubebuilder.io_cronjobs.yaml');
const golden = YAML.parse(fs.readFileSync(goldenFile, 'utf8'));
const root = golden.spec.versions.find((v) => v.name === 'v1').schema.openAPIV3Schema;

/** Walks `a.b[].c` (`[]` = array items) from a schema node. */
function at(node, dotted) {
  for (const part of dotted.split('.')) {
    const items = part.endsWith('[]');
    const name = items ? part.slice(0, -2) : part;
    node = node.properties?.[name];
    if (!node) throw new Error(`no property ${name} in ${dotted}`);
    if (items) node = node.items;
  }
  return node;
}

const JT = 'spec.jobTemplate';
const JOB = `${JT}.spec`;
const POD = `${JOB}.template.spec`;
const CONTAINER = `${POD}.containers[]`;
/** key → path in the golden's v1 schema. */
const paths = {
  'batch/v1.JobTemplateSpec': JT,
  'batch/v1.JobSpec': JOB,
  'core/v1.PodTemplateSpec': `${JOB}.template`,
  'core/v1.PodSpec': POD,
  'core/v1.Container': CONTAINER,
  'core/v1.EphemeralContainer': `${POD}.ephemeralContainers[]`,
  'core/v1.Volume': `${POD}.volumes[]`,
  'core/v1.Toleration': `${POD}.tolerations[]`,
  'core/v1.LocalObjectReference': `${POD}.imagePullSecrets[]`,
  'core/v1.Affinity': `${POD}.affinity`,
  'core/v1.PodSecurityContext': `${POD}.securityContext`,
  'core/v1.TopologySpreadConstraint': `${POD}.topologySpreadConstraints[]`,
  'core/v1.HostAlias': `${POD}.hostAliases[]`,
  'core/v1.PodDNSConfig': `${POD}.dnsConfig`,
  'core/v1.EnvVar': `${CONTAINER}.env[]`,
  'core/v1.EnvFromSource': `${CONTAINER}.envFrom[]`,
  'core/v1.ContainerPort': `${CONTAINER}.ports[]`,
  'core/v1.ResourceRequirements': `${CONTAINER}.resources`,
  'core/v1.Probe': `${CONTAINER}.livenessProbe`,
  'core/v1.Lifecycle': `${CONTAINER}.lifecycle`,
  'core/v1.SecurityContext': `${CONTAINER}.securityContext`,
  'core/v1.VolumeMount': `${CONTAINER}.volumeMounts[]`,
  'core/v1.EnvVarSource': `${CONTAINER}.env[].valueFrom`,
  'core/v1.SecretKeySelector': `${CONTAINER}.env[].valueFrom.secretKeyRef`,
  'core/v1.ConfigMapKeySelector': `${CONTAINER}.env[].valueFrom.configMapKeyRef`,
  'core/v1.ObjectFieldSelector': `${CONTAINER}.env[].valueFrom.fieldRef`,
  'core/v1.ResourceFieldSelector': `${CONTAINER}.env[].valueFrom.resourceFieldRef`,
  'core/v1.SecretVolumeSource': `${POD}.volumes[].secret`,
  'core/v1.ConfigMapVolumeSource': `${POD}.volumes[].configMap`,
  'core/v1.EmptyDirVolumeSource': `${POD}.volumes[].emptyDir`,
  'core/v1.HostPathVolumeSource': `${POD}.volumes[].hostPath`,
  'core/v1.PersistentVolumeClaimVolumeSource': `${POD}.volumes[].persistentVolumeClaim`,
  'core/v1.KeyToPath': `${POD}.volumes[].secret.items[]`,
  'core/v1.NodeSelector': `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`,
  'core/v1.SELinuxOptions': `${POD}.securityContext.seLinuxOptions`,
  'core/v1.Capabilities': `${CONTAINER}.securityContext.capabilities`,
  'meta/v1.LabelSelector': `${JOB}.selector`,
  'meta/v1.LabelSelectorRequirement': `${JOB}.selector.matchExpressions[]`,
  'core/v1.ObjectReference': 'status.active[]',
};

/** Where the golden embeds metav1.ObjectMeta below the root: referenced as `meta/v1.ObjectMeta` (hand-written in
 *  known-types/index.ts) so that `generateEmbeddedObjectMeta` applies there, as controller-gen does. */
const objectMetaPaths = [`${JT}.metadata`, `${JOB}.template.metadata`];
/** Every [key, path] a nested node is replaced by a reference for. */
const references = [...Object.entries(paths), ...objectMetaPaths.map((p) => ['meta/v1.ObjectMeta', p])];

/** Type docs from kubernetes-types' .d.ts (fallback when no golden node carries the type's own doc). */
function kubernetesTypesDoc(key) {
  const [modulePath, name] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
  const file = path.join(repoRoot, 'node_modules', 'kubernetes-types', `${modulePath}.d.ts`);
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, 'utf8');
  const m = new RegExp(`/\\*\\*((?:[^*]|\\*(?!/))*)\\*/\\s*export (?:interface|type) ${name}\\b`).exec(text);
  return m ? m[1].replace(/^\s*\*?\s?/gm, '').trim() : undefined;
}

function entry(key, node, isItem) {
  const { description, ...schema } = node;
  const typeDescription = isItem ? description : kubernetesTypesDoc(key);
  return { ...(typeDescription ? { description: typeDescription } : {}), schema };
}

/** Replaces, inside a copy of `node` found at `dotted`, every sub-node that is another catalogue type by
 *  `{ $known: key, description }` so each schema is stored once (expanded again on load). */
function withReferences(node, dotted) {
  const copy = structuredClone(node);
  const nested = references
    .filter(([, p]) => p.startsWith(`${dotted}.`))
    .sort(([, a], [, b]) => a.length - b.length);
  for (const [key, p] of nested) {
    const rel = p.slice(dotted.length + 1);
    const parts = rel.split('.');
    let parent = copy;
    try {
      for (const part of parts.slice(0, -1)) {
        parent = parent.properties[part.replace(/\[\]$/, '')];
        if (part.endsWith('[]')) parent = parent.items;
      }
    } catch {
      continue;
    }
    const last = parts[parts.length - 1];
    const name = last.replace(/\[\]$/, '');
    const holder = last.endsWith('[]') ? parent?.properties?.[name] : parent?.properties;
    const slot = last.endsWith('[]') ? 'items' : name;
    if (!holder?.[slot] || holder[slot].$known) continue;
    const { description } = holder[slot];
    holder[slot] = { $known: key, ...(description ? { description } : {}) };
  }
  return copy;
}

const catalogue = {};
for (const [key, dotted] of Object.entries(paths))
  catalogue[key] = entry(key, withReferences(at(root, dotted), dotted), dotted.endsWith('[]'));
for (const file of fs.readdirSync(path.join(repoRoot, 'scripts', 'known-types-sources')).sort()) {
  const key = file.replace(/\.yaml$/, '').replace(/^([a-z]+)-(v[0-9a-z]+)-(.*)$/, (_, g, v, t) => `${g}/${v}.${t[0].toUpperCase()}${t.slice(1)}`);
  const node = YAML.parse(fs.readFileSync(path.join(repoRoot, 'scripts', 'known-types-sources', file), 'utf8'));
  catalogue[key] = entry(key, node, true);
}

const out = [
  '/**',
  ' * GENERATED by scripts/extract-known-types.mjs — do not edit by hand.',
  ' * Pre-computed schemas of Kubernetes types, as controller-gen v0.21.0 emits them, taken from',
  ' * controller-tools v0.21.0 pkg/crd/testdata/testdata.kubebuilder.io_cronjobs.yaml (via ../shared/conformance)',
  ' * and scripts/known-types-sources/*.yaml. One JSON string per type, parsed on first use; `{"$known": key}`',
  ' * nodes stand for another entry (with the description of the place it is used at).',
  ' */',
  'export const KNOWN_TYPE_SOURCES: Record<string, string> = {',
  ...Object.keys(catalogue)
    .sort()
    .map((key) => `  ${JSON.stringify(key)}: ${JSON.stringify(JSON.stringify(catalogue[key]))},`),
  '};',
  '',
].join('\n');
const target = path.join(repoRoot, 'src', 'generate', 'crd', 'known-types', 'catalogue.generated.ts');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, out);
console.log(`wrote ${path.relative(repoRoot, target)} (${Object.keys(catalogue).length} types, ${out.length} bytes)`);
