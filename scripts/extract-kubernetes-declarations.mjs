#!/usr/bin/env node
// Builds kubernetes/<group>/<version>.d.ts: the type declarations behind `kubeforge/kubernetes/<group>/<version>`,
// the spelling an API file imports Kubernetes 1.32 types by (kubernetes-types on npm stops at 1.30 and has no
// Go named types). One interface per definition the local cluster serves, and the named Go types of
// src/generate/crd/known-types/go-named-types.ts as string (or map) aliases, each with its doc. `kubeforge
// manifests` never reads these files: the reader maps the import to the same catalogue key
// (`core/v1.Taint`), whose schema is rendered from the same definitions.
//
// Reads only Kubernetes' definitions (the catalogue's: src/cluster/schemas/builtin-definitions.generated.ts and
// known-types/meta-v1-definitions.generated.ts, through dist/).
// Usage: npx tsc -p tsconfig.build.json && node scripts/extract-kubernetes-declarations.mjs [out-folder]   (default kubernetes/)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repoRoot, 'dist');
const { keyOfDefinition, definitionNames, definitionSource } = await import(path.join(dist, 'generate/crd/known-types/definition-names.js'));
const { GO_NAMED_TYPES, GO_NAMED_MAPS } = await import(path.join(dist, 'generate/crd/known-types/go-named-types.js'));
const { withoutEnumValues } = await import(path.join(dist, 'generate/crd/known-types/from-definitions.js'));

const outRoot = path.resolve(process.argv[2] ?? path.join(repoRoot, 'kubernetes'));
const REF = '#/components/schemas/';

/** module path → { imports: Set<module>, lines: string[] } */
const modules = new Map();
const moduleOf = (key) => key.slice(0, key.lastIndexOf('.'));
const nameOf = (key) => key.slice(key.lastIndexOf('.') + 1);
const alias = (module) => module.replace(/[^A-Za-z0-9]/g, '_');
function moduleEntry(module) {
  if (!modules.has(module)) modules.set(module, { imports: new Set(), lines: [] });
  return modules.get(module);
}

function jsDoc(text, indent) {
  const cleaned = withoutEnumValues(text ?? '').replace(/\*\//g, '*\\/');
  if (!cleaned) return [];
  const lines = cleaned.split('\n');
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`), `${indent} */`];
}

/** The TypeScript type of a definition node, seen from `module`. */
function typeOf(node, module) {
  const ref = node.$ref ?? (Array.isArray(node.allOf) && node.allOf.length === 1 ? node.allOf[0].$ref : undefined);
  if (typeof ref === 'string' && ref.startsWith(REF)) {
    const key = keyOfDefinition(ref.slice(REF.length));
    if (moduleOf(key) === module) return nameOf(key);
    moduleEntry(module).imports.add(moduleOf(key));
    return `${alias(moduleOf(key))}.${nameOf(key)}`;
  }
  if (node.type === 'array') return `${wrap(typeOf(node.items ?? {}, module))}[]`;
  if (node.type === 'object' && node.additionalProperties && typeof node.additionalProperties === 'object')
    return `{ [key: string]: ${typeOf(node.additionalProperties, module)} }`;
  if (node.type === 'object' && node.properties) return '{ [key: string]: unknown }';
  if (node.type === 'object') return '{ [key: string]: unknown }';
  if (node.type === 'string') return 'string';
  if (node.type === 'integer' || node.type === 'number') return 'number';
  if (node.type === 'boolean') return 'boolean';
  return 'unknown';
}
const wrap = (type) => (/[|{ ]/.test(type) && !type.startsWith('{') ? `(${type})` : type);
const propertyName = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

for (const definition of definitionNames().sort()) {
  const key = keyOfDefinition(definition);
  const node = JSON.parse(definitionSource(definition));
  const module = moduleOf(key);
  const entry = moduleEntry(module);
  entry.lines.push('', ...jsDoc(node.description, ''));
  if (key === 'api/resource.Quantity' || key === 'util/intstr.IntOrString') {
    entry.lines.push(`export type ${nameOf(key)} = number | string;`);
    continue;
  }
  if (!node.properties) {
    entry.lines.push(`export type ${nameOf(key)} = ${typeOf(node, module)};`);
    continue;
  }
  const required = new Set(node.required ?? []);
  entry.lines.push(`export interface ${nameOf(key)} {`);
  for (const [field, child] of Object.entries(node.properties)) {
    entry.lines.push(...jsDoc(child.description, '  '));
    entry.lines.push(`  ${propertyName(field)}${required.has(field) ? '' : '?'}: ${typeOf(child, module)};`);
  }
  entry.lines.push('}');
}

// meta/v1 types that are not definitions of their own (inlined as strings/objects by kube-openapi).
const meta = moduleEntry('meta/v1');
meta.lines.push(
  '',
  '/** Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON (RFC 3339). */',
  'export type Time = string;',
  '',
  '/** MicroTime is version of Time with microsecond level precision. */',
  'export type MicroTime = string;',
  '',
  '/** Duration is a wrapper around time.Duration which supports correct marshaling to YAML and JSON. */',
  'export type Duration = string;',
  '',
  '/** Fields stores a set of fields in a data structure like a Trie, in JSON format. */',
  'export type Fields = { [key: string]: unknown };',

);

for (const [key, named] of GO_NAMED_TYPES) {
  const entry = moduleEntry(moduleOf(key));
  entry.lines.push('', ...jsDoc(named.doc, ''), `export type ${nameOf(key)} = string;`);
}
for (const [key, [doc, valueKey]] of Object.entries(GO_NAMED_MAPS)) {
  const module = moduleOf(key);
  const entry = moduleEntry(module);
  entry.imports.add(moduleOf(valueKey));
  entry.lines.push('', ...jsDoc(doc, ''), `export type ${nameOf(key)} = { [key: string]: ${alias(moduleOf(valueKey))}.${nameOf(valueKey)} };`);
}

fs.rmSync(outRoot, { recursive: true, force: true });
for (const [module, { imports, lines }] of [...modules].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const file = path.join(outRoot, `${module}.d.ts`);
  const depth = module.split('/').length - 1;
  const up = depth === 0 ? './' : '../'.repeat(depth);
  const header = [
    '// GENERATED by scripts/extract-kubernetes-declarations.mjs from Kubernetes 1.32 definitions — do not edit by hand.',
    `// kubeforge/kubernetes/${module}: the Kubernetes 1.32 types of ${module} (and its named Go types) for API files.`,
    ...[...imports].filter((m) => m !== module).sort().map((m) => `import type * as ${alias(m)} from '${up}${m}.js';`),
  ];
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${[...header, ...lines].join('\n')}\n\nexport {};\n`);
}
console.log(`wrote ${modules.size} modules under ${path.relative(process.cwd(), outRoot) || '.'}`);
