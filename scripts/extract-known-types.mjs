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
// Naming nested nodes: besides the `paths` table below, every node of the golden whose Kubernetes type is known
// gets its own entry. The type of a node comes from the kubernetes-types declarations (each interface field's
// declared type: `X`, `Array<X>` or `{ [name: string]: X }`), walked from the table's entries down through the
// golden schema. A type met at several places takes the schema most of its places share (they differ only when
// a use site adds markers); a nested node equal to its type's entry (description aside) is stored as
// `{ $known: key, description }`, so each schema is stored once, and a node that differs stays inline.
//
// Usage: node scripts/extract-known-types.mjs [path/to/conformance]   (default ../shared/conformance)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import ts from 'typescript';

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

const kubernetesTypesRoot = path.join(repoRoot, 'node_modules', 'kubernetes-types');
/** Types with hand-written schemas in known-types/index.ts: never extracted, never walked into. */
const SPECIAL_KEYS = new Set([
  'meta/v1.Time', 'meta/v1.MicroTime', 'meta/v1.Duration', 'meta/v1.Fields', 'meta/v1.ObjectMeta', 'meta/v1.ListMeta',
  'meta/v1.TypeMeta', 'api/resource.Quantity', 'util/intstr.IntOrString', 'runtime.RawExtension',
  'apiextensions/v1.JSON', 'unstructured.Unstructured',
]);

/**
 * key → field name → { key, container } from kubernetes-types' declarations, for fields whose type (or element
 * type) is an interface of kubernetes-types; container is 'none', 'array' or 'map'.
 */
function readFieldTypes() {
  const fieldTypes = new Map();
  const visitFolder = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) visitFolder(abs);
      else if (entry.name.endsWith('.d.ts')) readDeclarations(abs, fieldTypes);
    }
  };
  visitFolder(kubernetesTypesRoot);
  return fieldTypes;
}

function readDeclarations(file, fieldTypes) {
  const modulePath = path.relative(kubernetesTypesRoot, file).replace(/\.d\.ts$/, '').split(path.sep).join('/');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imported = new Map();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause?.namedBindings) continue;
    const target = path.posix.join(path.posix.dirname(modulePath), statement.moduleSpecifier.text);
    for (const element of statement.importClause.namedBindings.elements ?? []) {
      imported.set(element.name.text, `${target}.${(element.propertyName ?? element.name).text}`);
    }
  }
  const keyOf = (name) => imported.get(name) ?? `${modulePath}.${name}`;
  /** { key, container } of a field's type node, or undefined when it names no interface. */
  const refOf = (node) => {
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const name = node.typeName.text;
      if (name === 'Array' && node.typeArguments?.length === 1) {
        const inner = refOf(node.typeArguments[0]);
        return inner?.container === 'none' ? { key: inner.key, container: 'array' } : undefined;
      }
      return node.typeArguments ? undefined : { key: keyOf(name), container: 'none' };
    }
    if (ts.isArrayTypeNode(node)) {
      const inner = refOf(node.elementType);
      return inner?.container === 'none' ? { key: inner.key, container: 'array' } : undefined;
    }
    if (ts.isTypeLiteralNode(node) && node.members.length === 1 && ts.isIndexSignatureDeclaration(node.members[0])) {
      const inner = refOf(node.members[0].type);
      return inner?.container === 'none' ? { key: inner.key, container: 'map' } : undefined;
    }
    return undefined;
  };
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const fields = new Map();
    for (const member of statement.members) {
      if (!ts.isPropertySignature(member) || !member.type || !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) continue;
      const ref = refOf(member.type);
      if (ref) fields.set(member.name.text, ref);
    }
    fieldTypes.set(`${modulePath}.${statement.name.text}`, fields);
  }
}

const fieldTypes = readFieldTypes();

/** JSON with object keys sorted, to compare schemas. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}
const withoutDescription = ({ description, ...rest }) => rest;

/** The node a field's schema holds its type at: the field node, its items, or its map values. */
function typedSlot(child, container) {
  if (container === 'array') return child.items;
  if (container === 'map') return typeof child.additionalProperties === 'object' ? child.additionalProperties : undefined;
  return child;
}

/** Every place a catalogue-able type occurs in the golden, by key, in walk order (paths in `a.b[]` form). */
const occurrences = new Map();
function visitTyped(node, key, dotted, isItem) {
  if (SPECIAL_KEYS.has(key) || !fieldTypes.has(key) || !node || typeof node !== 'object') return;
  const list = occurrences.get(key) ?? [];
  if (list.some((o) => o.dotted === dotted)) return;
  list.push({ node, dotted, isItem });
  occurrences.set(key, list);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const field = fieldTypes.get(key).get(name);
    if (!field) continue;
    const slot = typedSlot(child, field.container);
    const suffix = field.container === 'array' ? '[]' : field.container === 'map' ? '{}' : '';
    visitTyped(slot, field.key, `${dotted}.${name}${suffix}`, field.container !== 'none');
  }
}

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

/**
 * The schema of each walked type: the variant (description aside) most of its places share, first met on a
 * tie; its description is an item's (the type's own doc) when it occurs as an item or map value.
 */
function chooseSchemas() {
  const chosen = new Map();
  const divergent = [];
  for (const [key, list] of occurrences) {
    const variants = new Map();
    for (const occurrence of list) {
      const id = canonical(withoutDescription(occurrence.node));
      variants.set(id, [...(variants.get(id) ?? []), occurrence]);
    }
    const best = [...variants.values()].reduce((a, b) => (b.length > a.length ? b : a));
    if (variants.size > 1) divergent.push(`${key} (${variants.size} variants, ${best.length}/${list.length} places share the one kept)`);
    const item = best.find((o) => o.isItem);
    chosen.set(key, { node: (item ?? best[0]).node, isItem: item !== undefined, id: canonical(withoutDescription(best[0].node)) });
  }
  return { chosen, divergent };
}

/**
 * A copy of `node` (of type `key`) where every nested node whose type has an entry equal to it (description
 * aside) becomes `{ $known, description }`; nested ObjectMeta always does (expanded per options on load).
 */
function withTypedReferences(node, key, chosen) {
  const fields = fieldTypes.get(key);
  if (!fields || !node.properties) return node;
  const properties = {};
  for (const [name, child] of Object.entries(node.properties)) {
    const field = fields.get(name);
    const slot = field && typedSlot(child, field.container);
    let replaced = child;
    if (field && slot) {
      const reference = typedReference(slot, field.key, chosen);
      if (field.container === 'array') replaced = { ...child, items: reference };
      else if (field.container === 'map') replaced = { ...child, additionalProperties: reference };
      else replaced = reference;
    }
    properties[name] = replaced;
  }
  return { ...node, properties };
}

function typedReference(slot, key, chosen) {
  const description = slot.description ? { description: slot.description } : {};
  if (key === 'meta/v1.ObjectMeta') return { $known: key, ...description };
  const target = chosen.get(key);
  if (target && target.id === canonical(withoutDescription(slot))) return { $known: key, ...description };
  return withTypedReferences(slot, key, chosen);
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
const sources = {};
for (const file of fs.readdirSync(path.join(repoRoot, 'scripts', 'known-types-sources')).sort()) {
  const key = file.replace(/\.yaml$/, '').replace(/^([a-z]+)-(v[0-9a-z]+)-(.*)$/, (_, g, v, t) => `${g}/${v}.${t[0].toUpperCase()}${t.slice(1)}`);
  sources[key] = YAML.parse(fs.readFileSync(path.join(repoRoot, 'scripts', 'known-types-sources', file), 'utf8'));
}
for (const [key, dotted] of Object.entries(paths)) visitTyped(at(root, dotted), key, dotted, dotted.endsWith('[]'));
for (const [key, node] of Object.entries(sources)) visitTyped(node, key, `(${key})`, true);
const { chosen, divergent } = chooseSchemas();
// The table's entries keep their documented place; every other walked type takes its chosen schema.
for (const [key, dotted] of Object.entries(paths)) {
  const node = at(root, dotted);
  chosen.set(key, { ...chosen.get(key), node, isItem: dotted.endsWith('[]'), id: canonical(withoutDescription(node)) });
}
for (const [key, { node, isItem }] of chosen) {
  if (key in sources) continue;
  const typed = withTypedReferences(node, key, chosen);
  catalogue[key] = entry(key, key in paths ? withReferences(typed, paths[key]) : typed, isItem);
}
for (const [key, node] of Object.entries(sources)) catalogue[key] = entry(key, node, true);
if (divergent.length > 0) console.log(`types whose places differ (the most shared schema is kept):\n  ${divergent.join('\n  ')}`);

const out = [
  '/**',
  ' * GENERATED by scripts/extract-known-types.mjs — do not edit by hand.',
  ' * Pre-computed schemas of Kubernetes types, as controller-gen v0.21.0 emits them, taken from',
  ' * controller-tools v0.21.0 pkg/crd/testdata/testdata.kubebuilder.io_cronjobs.yaml (via ../shared/conformance)',
  ' * and scripts/known-types-sources/*.yaml; the types nested in them are named by kubernetes-types field types.',
  ' * One JSON string per type, parsed on first use; `{"$known": key}`',
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
