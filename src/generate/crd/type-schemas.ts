/**
 * Builds flattened OpenAPI schemas from the API model, following controller-gen: a use site (field, array
 * item, map value, alias target) of a named type is a link carrying only the use site's markers and doc; the
 * named type's own schema (structure + doc + type-level markers) is built once, cached, and merged into each
 * use (merge.ts). Field markers see the type a use site exposes before flattening (§4.5): local named types
 * whose target is basic expose it; structs, arrays, maps, other folders' types and Kubernetes types do not.
 */
import * as path from 'node:path';
import type { Diagnostic, Marker, SourcePosition } from '../../markers/types.js';
import type { ApiModel, Field, NamedType, StructDefinition, TypeRef } from '../../model/index.js';
import { embeddedObjectMetaSchema, isKnownTypeKey, knownType, TYPE_META_DESCRIPTIONS, typeMetaSchema } from './known-types/index.js';
import { mergeSchemas } from './merge.js';
import { withRuleOrigin } from './rule-origins.js';
import { applySchemaMarkers } from './schema-markers.js';
import { byteCompare, DOC_KEYWORDS, freezeDeep, type Schema } from './schema.js';

export interface SchemaOptions {
  allowDangerousTypes?: boolean;
  generateEmbeddedObjectMeta?: boolean;
}

/** Where a use site stands, for messages and the §4.5 visibility rule. */
interface UseSite {
  owner: string;
  position: SourcePosition;
  /** Folder of the file holding the use site. */
  dir: string;
}

const ONE_OF = [
  { name: 'kubebuilder:validation:AtMostOneOf', op: '<= 1', message: (l: string) => `at most one of the fields in [${l}] may be set` },
  { name: 'kubebuilder:validation:ExactlyOneOf', op: '== 1', message: (l: string) => `exactly one of the fields in [${l}] must be set` },
  { name: 'kubebuilder:validation:AtLeastOneOf', op: '>= 1', message: (l: string) => `at least one of the fields in [${l}] must be set` },
];

function has(markers: readonly Marker[], ...names: string[]): boolean {
  return markers.some((m) => names.includes(m.name));
}

function enumType(values: readonly (string | number | boolean)[]): string | undefined {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  if (values.every((v) => typeof v === 'number')) return values.every((v) => Number.isInteger(v)) ? 'integer' : 'number';
  return undefined;
}

export class SchemaBuilder {
  private readonly flattened = new Map<string, Schema>();
  private readonly building = new Set<string>();
  /** The types being built, outermost first, each with the field being built: the path to a recursion. */
  private readonly buildStack: Array<{ id: string; name: string; field?: string }> = [];
  private readonly packageOptional = new Set<string>();
  private readonly kindIds = new Set<string>();

  constructor(
    private readonly model: ApiModel,
    private readonly options: SchemaOptions,
    readonly diagnostics: Diagnostic[],
  ) {
    for (const group of model.groups)
      for (const version of group.versions) {
        if (has(version.markers, 'kubebuilder:validation:Optional')) this.packageOptional.add(version.dir);
        for (const kind of version.kinds) this.kindIds.add(kind.typeId);
      }
  }

  private error(position: SourcePosition, message: string): void {
    this.diagnostics.push({ position, message });
  }

  /** The schema a type reference produces at a use site, with links for named/known types (not flattened). */
  private useSchema(ref: TypeRef, site: UseSite): Schema {
    switch (ref.kind) {
      case 'primitive':
        if (ref.type === 'number' && !ref.alias) {
          this.error(
            site.position,
            `${site.owner}: plain "number" has no width; use int32, int64 or int from kubeforge/api (or float64 with allowDangerousTypes)`,
          );
          return { type: 'integer' };
        }
        if (ref.type === 'number' && !this.options.allowDangerousTypes)
          this.error(
            site.position,
            `${site.owner}: found float, the usage of which is highly discouraged, as support for them varies across languages. Please consider serializing your float as string instead. If you are really sure you want to use them, re-run with crd:allowDangerousTypes=true`,
          );
        return { type: ref.type, ...(ref.format ? { format: ref.format } : {}) };
      case 'array':
        return { type: 'array', items: this.useSchema(ref.items, site) };
      case 'map':
        return { type: 'object', additionalProperties: this.useSchema(ref.values, site) };
      case 'enum': {
        const type = enumType(ref.values);
        if (!type)
          this.error(site.position, `${site.owner}: a union of literals must have one value type (strings, integers, numbers or booleans)`);
        return { ...(type ? { type } : {}), enum: [...ref.values] };
      }
      case 'literal':
        return { type: enumType([ref.value]), enum: [ref.value] };
      case 'known':
        if (ref.key !== 'meta/v1.TypeMeta' && !isKnownTypeKey(ref.key))
          this.error(
            site.position,
            `${site.owner}: no schema is known for Kubernetes type ${ref.key} (kubeforge knows the Kubernetes 1.32 types of the groups its local cluster serves; write this one out in an API file)`,
          );
        return { $link: ref };
      case 'named': {
        const node: Schema = { $link: ref };
        const visible = this.visibleType(ref.id, site.dir);
        if (visible.type) node.type = visible.type;
        if (visible.format) node.format = visible.format;
        return node;
      }
    }
  }

  /** The type/format field markers see on a link to a named type (§4.5). */
  private visibleType(id: string, fromDir: string): { type?: string; format?: string } {
    const type = this.model.types[id];
    if (!type || type.definition.kind !== 'alias' || path.posix.dirname(type.file) !== fromDir) return {};
    const target = type.definition.target;
    if (target.kind === 'named') return this.visibleType(target.id, fromDir);
    if (!['primitive', 'enum', 'literal'].includes(target.kind)) return {};
    if (this.building.has(id)) return {};
    const schema = this.typeSchema(id);
    return { type: schema.type, format: schema.format };
  }

  /** Replaces every link in `node` by the merged schema of its target. */
  private flatten(node: Schema, site: UseSite): Schema {
    if (node.properties) for (const [k, v] of Object.entries(node.properties)) node.properties[k] = this.flatten(v, site);
    if (node.items) node.items = this.flatten(node.items, site);
    if (node.additionalProperties && typeof node.additionalProperties === 'object')
      node.additionalProperties = this.flatten(node.additionalProperties, site);
    const link = node.$link;
    if (!link) return node;
    delete node.$link;
    let base: Schema;
    if (link.kind === 'named' && this.building.has(link.id)) {
      this.reportRecursion(link.id, site);
      // A permissive placeholder, so the recursion is the only error (no structural-schema follow-ups).
      base = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    } else if (link.kind === 'named') base = this.typeSchema(link.id);
    else if (link.key === 'meta/v1.TypeMeta') base = typeMetaSchema();
    else if (link.key === 'meta/v1.ObjectMeta' && this.options.generateEmbeddedObjectMeta) base = embeddedObjectMetaSchema();
    else {
      const known = knownType(link.key, { generateEmbeddedObjectMeta: this.options.generateEmbeddedObjectMeta ?? false });
      // An unknown key was already reported at the use site; a permissive placeholder avoids follow-on errors.
      base = known
        ? { ...(known.description ? { description: known.description } : {}), ...known.schema }
        : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    }
    return mergeSchemas(base, node, (a, b) =>
      this.error(site.position, `${site.owner}: conflicting types in allOf branches in schema: ${a} vs ${b}`),
    );
  }

  /**
   * A field whose type leads back to a type still being built: an OpenAPI schema cannot be recursive (the
   * API server would need an infinite schema), so it is refused at the field that closes the cycle, with the
   * field path from the kind and the cycle itself.
   */
  private reportRecursion(id: string, site: UseSite): void {
    const start = this.buildStack.findIndex((frame) => frame.id === id);
    const name = this.buildStack[start]?.name ?? id;
    const cycle = this.buildStack.slice(start).map((frame) => `${frame.name}.${frame.field ?? '(embedded)'}`);
    const fromKind = this.buildStack.map((frame) => frame.field).filter((field) => field !== undefined);
    this.error(
      site.position,
      `${site.owner}: recursive type: ${fromKind.join('.')} (${cycle.join(' → ')}) refers back to ${name}, and a CRD schema cannot be recursive; ` +
        'break the cycle (e.g. separate types for a fixed depth), or type the field JSONValue from kubeforge/api (any JSON, kept as written)',
    );
  }

  /**
   * The flattened schema of a named type: structure + doc + type-level markers. Built once per type; each
   * call returns a shallow copy whose top level is the caller's to change, while every nested schema is
   * shared between all uses and frozen (see freezeDeep).
   */
  typeSchema(id: string): Schema {
    const cached = this.flattened.get(id);
    if (cached) return { ...cached };
    const type = this.model.types[id];
    if (!type || this.building.has(id)) return {};
    this.building.add(id);
    this.buildStack.push({ id, name: type.name });
    const site: UseSite = { owner: `type ${type.name}`, position: type.position, dir: path.posix.dirname(type.file) };
    let schema: Schema;
    let embedded: Schema[] = [];
    if (type.definition.kind === 'struct') ({ own: schema, embedded } = this.structSchema(type, type.definition));
    else schema = this.useSchema(type.definition.target, site);
    if (type.description) schema.description = type.description;
    applySchemaMarkers(schema, type.markers, { owner: site.owner, diagnostics: this.diagnostics });
    if (has(type.markers, 'k8s:enum')) this.applyK8sEnum(type, schema);
    if (type.definition.kind === 'struct') {
      this.applyOneOf(type, type.definition, schema);
      schema = this.withEmbedded(type, schema, embedded);
      // controller-gen: a struct without properties is `type: object` alone (no `properties: {}`).
      if (schema.properties && Object.keys(schema.properties).length === 0) delete schema.properties;
    }
    if (type.definition.kind === 'alias') schema = this.flatten(schema, site);
    this.building.delete(id);
    this.buildStack.pop();
    this.flattened.set(id, freezeDeep(schema));
    return { ...schema };
  }

  private applyK8sEnum(type: NamedType, schema: Schema): void {
    const target = type.definition.kind === 'alias' ? type.definition.target : undefined;
    if (!target || target.kind !== 'enum' || !target.values.every((v) => typeof v === 'string')) {
      this.error(type.position, `type ${type.name}: enum type must be a string, not ${target?.kind ?? 'struct'} (+k8s:enum needs a union of string literals)`);
      return;
    }
    schema.type = 'string';
    schema.enum = [...target.values].sort((a, b) => byteCompare(JSON.stringify(a), JSON.stringify(b)));
  }

  /** Whether a field ends up required (§5.2) and whether that came from an explicit marker. */
  private requirement(field: Field, dir: string): { required: boolean; explicit: boolean } {
    const m = field.markers;
    if (has(m, 'kubebuilder:validation:Optional')) return { required: false, explicit: true };
    if (has(m, 'kubebuilder:validation:Required')) return { required: true, explicit: true };
    if (has(m, 'optional', 'k8s:optional')) return { required: false, explicit: true };
    if (has(m, 'required', 'k8s:required')) return { required: true, explicit: true };
    if (this.packageOptional.has(dir)) return { required: false, explicit: false };
    return { required: !field.optional, explicit: false };
  }

  /**
   * Merges the embedded (`extends`) structs into a struct's own schema (its fields and type-level markers), as
   * controller-gen's FlattenEmbedded does (pkg/crd/flatten.go, flattenAllOfInto): whatever is merged first keeps
   * its docs on a property both declare (descriptions are never merged), and the validations merged later come
   * first. A kind's schema is the accumulator itself, so its own field keeps its description and the embedded
   * rules come before its own; any other struct is reached through a reference whose (empty) wrapper takes the
   * embedded structs first, then the struct's own schema — so a shadowing field shows the embedded field's
   * description and the struct's own rules come before the embedded ones.
   */
  private withEmbedded(type: NamedType, own: Schema, embedded: Schema[]): Schema {
    if (embedded.length === 0) return own;
    const conflict = (a: string, b: string): void => this.error(type.position, `type ${type.name}: conflicting types in allOf branches in schema: ${a} vs ${b}`);
    const keepDocs = { keepDestinationDocs: true };
    if (this.kindIds.has(type.id)) {
      const ownNames = Object.keys(own.properties ?? {});
      for (const e of embedded) mergeSchemas(own, e, conflict, keepDocs);
      // Property order as declared: the embedded ones (TypeMeta's apiVersion, kind) first.
      const merged = own.properties ?? {};
      const names = [...Object.keys(merged).filter((n) => !ownNames.includes(n)), ...ownNames];
      if (own.properties) own.properties = Object.fromEntries(names.map((n) => [n, merged[n]!]));
      return own;
    }
    const accumulated: Schema = {};
    for (const e of embedded) mergeSchemas(accumulated, e, conflict, keepDocs);
    const docs = Object.fromEntries(DOC_KEYWORDS.filter((k) => own[k] !== undefined).map((k) => [k, own[k]]));
    return { ...mergeSchemas(accumulated, own, conflict, keepDocs), ...docs };
  }

  private structSchema(type: NamedType, def: StructDefinition): { own: Schema; embedded: Schema[] } {
    const dir = path.posix.dirname(type.file);
    const isKind = this.kindIds.has(type.id);
    const schema: Schema = { type: 'object', properties: {} };
    const required: string[] = [];
    const parentRules: unknown[] = [];
    const embedded: Schema[] = [];
    for (const embed of def.embeds) {
      const site: UseSite = { owner: `type ${type.name}`, position: type.position, dir };
      const flattened = this.flatten(this.useSchema(embed, site), site);
      for (const k of DOC_KEYWORDS) delete flattened[k];
      embedded.push(flattened);
    }
    const frame = this.buildStack[this.buildStack.length - 1];
    for (const field of def.fields) {
      if (frame?.id === type.id) frame.field = field.name;
      const owner = `field "${field.name}" of ${type.name}`;
      if (isKind && (field.name === 'apiVersion' || field.name === 'kind')) {
        schema.properties![field.name] = { description: TYPE_META_DESCRIPTIONS[field.name], type: 'string' };
        continue;
      }
      if (isKind && field.name === 'metadata') {
        schema.properties!.metadata = { type: 'object' };
        // ObjectMeta is embedded with omitempty in Go: required only when a marker says so (+required, …).
        const metadata = this.requirement(field, dir);
        if (metadata.required && metadata.explicit) required.push('metadata');
        continue;
      }
      if (has(field.markers, 'k8s:enum')) {
        this.error(field.position, `${owner}: k8s:enum must be set on a type, not a field`);
      }
      const site: UseSite = { owner, position: field.position, dir };
      const node: Schema = has(field.markers, 'kubebuilder:validation:Schemaless') ? {} : this.useSchema(field.type, site);
      if (field.description) node.description = field.description;
      applySchemaMarkers(node, field.markers, { owner, diagnostics: this.diagnostics });
      const { required: isRequired } = this.requirement(field, dir);
      const immutable = field.markers.find((m) => m.name === 'k8s:immutable');
      if (immutable) {
        node['x-kubernetes-validations'] = [
          ...((node['x-kubernetes-validations'] as unknown[]) ?? []),
          withRuleOrigin({ message: 'field is immutable', rule: 'self == oldSelf' }, immutable),
        ];
        if (!isRequired)
          parentRules.push(
            withRuleOrigin({ message: `field ${field.name} is immutable once set`, rule: `!has(oldSelf.${field.name}) || has(self.${field.name})` }, immutable),
          );
      }
      schema.properties![field.name] = this.flatten(node, site);
      if (isRequired) required.push(field.name);
    }
    if (required.length > 0) schema.required = [...new Set([...(schema.required ?? []), ...required])].sort(byteCompare);
    if (parentRules.length > 0)
      schema['x-kubernetes-validations'] = [...((schema['x-kubernetes-validations'] as unknown[]) ?? []), ...parentRules];
    return { own: schema, embedded };
  }

  /** AtMostOneOf / ExactlyOneOf / AtLeastOneOf (§10.2, v0.21.0 rule form), after all other type markers. */
  private applyOneOf(type: NamedType, def: StructDefinition, schema: Schema): void {
    const dir = path.posix.dirname(type.file);
    for (const kind of ONE_OF) {
      for (const marker of type.markers.filter((m) => m.name === kind.name)) {
        const raw = marker.args[''];
        const names = (Array.isArray(raw) ? raw : [raw]).map(String);
        const short = kind.name.replace('kubebuilder:validation:', '');
        if (names.some((n) => n.includes('.'))) {
          this.error(marker.position, `type ${type.name}: kubebuilder:validation:${short}: cannot reference nested fields: ${names.join(',')}`);
          continue;
        }
        let ok = true;
        for (const name of names) {
          const field = def.fields.find((f) => f.name === name);
          if (!field) {
            this.error(marker.position, `type ${type.name}: kubebuilder:validation:${short}: no field named "${name}"`);
            ok = false;
            continue;
          }
          const { required, explicit } = this.requirement(field, dir);
          if (!required) continue;
          ok = false;
          this.error(
            field.position,
            explicit
              ? `field ${name} is part of OneOf constraint and cannot be marked as required`
              : `field ${name} is part of OneOf constraint and must have omitempty tag (make it optional with "?", the spelling of omitempty and omitzero)`,
          );
        }
        if (!ok) continue;
        const list = names.join(' ');
        schema['x-kubernetes-validations'] = [
          ...((schema['x-kubernetes-validations'] as unknown[]) ?? []),
          withRuleOrigin({ message: kind.message(list), rule: `[${names.map((n) => `has(self.${n})`).join(',')}].filter(x,x==true).size() ${kind.op}` }, marker),
        ];
      }
    }
  }
}
