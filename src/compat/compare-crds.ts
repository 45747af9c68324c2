/**
 * The API-evolution rules: compares the CRDs generated from the API at a git ref with today's and lists every
 * difference that matters to existing objects and clients, each breaking or not, with why (the rules of
 * crd-schema-checker and kube-api-linter, as Kubernetes' own API review applies them). Pure: CRD documents in,
 * findings out; where each finding's cause is in the sources is left to source-locator.ts.
 */
import { createHash } from 'node:crypto';
import type { CrdVersion, CustomResourceDefinition } from '../generate/crd/index.js';
import type { Schema } from '../generate/crd/schema.js';
import { schemaPath, type CompatFinding, type SchemaStep, type SourceHint } from './findings.js';

type Rule = { rule: string; optionalOldSelf?: boolean; [key: string]: unknown };

const STORED_VERSIONS_NOTE =
  'objects may still be stored in it (status.storedVersions), which cannot be known from the sources: check `kubectl get crd {crd} -o jsonpath={.status.storedVersions}` on every cluster and migrate storage first';

/** Collects findings for one CRD pair. */
class Comparison {
  readonly findings: CompatFinding[] = [];

  constructor(
    private readonly crd: string,
    private readonly group: string,
    private readonly kind: string,
  ) {}

  add(
    code: string,
    breaking: boolean,
    change: string,
    why: string,
    where: { version?: string; steps?: SchemaStep[]; target: SourceHint['target']; markers?: string[]; rule?: object; side?: 'today' | 'ref'; idSuffix?: string },
  ): void {
    const steps = where.steps ?? [];
    const path = where.version !== undefined && where.steps !== undefined ? schemaPath(steps) || '.' : undefined;
    const scope = [this.crd, where.version, path].filter((p) => p !== undefined).join('/');
    this.findings.push({
      id: `${scope}:${code}${where.idSuffix ? `:${where.idSuffix}` : ''}`,
      code,
      breaking,
      crd: this.crd,
      ...(where.version !== undefined ? { version: where.version } : {}),
      ...(path !== undefined ? { path } : {}),
      change,
      why,
      hint: {
        group: this.group,
        kind: this.kind,
        version: where.version ?? '',
        steps,
        target: where.target,
        ...(where.markers ? { markers: where.markers } : {}),
        ...(where.rule ? { rule: where.rule } : {}),
        side: where.side ?? 'today',
      },
    });
  }
}

const show = (value: unknown): string => JSON.stringify(value);
const V = 'kubebuilder:validation:';

/** The lower bounds (minimum, minLength, minItems, minProperties): raised or added is tightening. */
const LOWER_BOUNDS = [
  ['minimum', `${V}Minimum`],
  ['minLength', `${V}MinLength`],
  ['minItems', `${V}MinItems`],
  ['minProperties', `${V}MinProperties`],
] as const;
/** The upper bounds: lowered or added is tightening. */
const UPPER_BOUNDS = [
  ['maximum', `${V}Maximum`],
  ['maxLength', `${V}MaxLength`],
  ['maxItems', `${V}MaxItems`],
  ['maxProperties', `${V}MaxProperties`],
] as const;

const TIGHTENED_WHY = 'values valid before may now be rejected: clients creating them fail, and so do updates of stored objects holding them (unless the server ratchets unchanged fields, Kubernetes 1.30+)';
const LOOSENED_WHY = 'every value valid before is still valid';

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function compareBounds(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  for (const [lower, keywords] of [
    [true, LOWER_BOUNDS],
    [false, UPPER_BOUNDS],
  ] as const) {
    for (const [keyword, marker] of keywords) {
      const before = num(old[keyword]);
      const after = num(now[keyword]);
      const exclusive = keyword === 'minimum' ? 'exclusiveMinimum' : keyword === 'maximum' ? 'exclusiveMaximum' : undefined;
      const markers = exclusive ? [marker, `${V}${exclusive[0]!.toUpperCase()}${exclusive.slice(1)}`] : [marker];
      if (before === after) {
        if (exclusive && Boolean(old[exclusive]) !== Boolean(now[exclusive]) && after !== undefined) {
          const tighter = Boolean(now[exclusive]);
          c.add(`${exclusive}-${tighter ? 'added' : 'removed'}`, tighter, `${keyword} ${after} became ${tighter ? 'exclusive' : 'inclusive'}`, tighter ? TIGHTENED_WHY : LOOSENED_WHY, {
            version,
            steps,
            target: 'field',
            markers,
          });
        }
        continue;
      }
      let tighter: boolean;
      if (before === undefined) tighter = true;
      else if (after === undefined) tighter = false;
      else tighter = lower ? after > before : after < before;
      const change =
        before === undefined ? `${keyword} ${after} added` : after === undefined ? `${keyword} ${before} removed` : `${keyword} changed from ${before} to ${after}`;
      c.add(`${keyword}-${tighter ? 'tightened' : 'loosened'}`, tighter, change, tighter ? TIGHTENED_WHY : LOOSENED_WHY, { version, steps, target: 'field', markers });
    }
  }
}

function ruleHash(rule: string): string {
  return createHash('sha256').update(rule).digest('hex').slice(0, 8);
}

/** A rule that only constrains changes (a transition rule, `oldSelf`) or opts into ratcheting (`optionalOldSelf`). */
function ratchets(rule: Rule): boolean {
  return rule.optionalOldSelf === true || /\boldSelf\b/.test(rule.rule);
}

function compareRules(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  const before = (old['x-kubernetes-validations'] as Rule[] | undefined) ?? [];
  const after = (now['x-kubernetes-validations'] as Rule[] | undefined) ?? [];
  const beforeRules = new Set(before.map((r) => r.rule));
  const afterRules = new Set(after.map((r) => r.rule));
  for (const rule of after) {
    if (beforeRules.has(rule.rule)) continue;
    const ratcheted = ratchets(rule);
    c.add(
      ratcheted ? 'cel-rule-added-ratcheting' : 'cel-rule-added',
      !ratcheted,
      `CEL rule ${show(rule.rule)} added`,
      ratcheted
        ? `it is a ${rule.optionalOldSelf === true ? 'rule with optionalOldSelf' : 'transition rule (oldSelf)'}: existing objects are not re-judged by it`
        : 'existing objects that break the rule can no longer be updated (add a transition rule with oldSelf, or optionalOldSelf, to ratchet)',
      { version, steps, target: 'field', markers: [`${V}XValidation`], rule, idSuffix: ruleHash(rule.rule) },
    );
  }
  for (const rule of before) {
    if (afterRules.has(rule.rule)) continue;
    c.add('cel-rule-removed', false, `CEL rule ${show(rule.rule)} removed`, LOOSENED_WHY, { version, steps, target: 'field', idSuffix: ruleHash(rule.rule) });
  }
}

function compareEnum(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  const where = { version, steps, target: 'field' as const, markers: [`${V}Enum`] };
  if (old.enum === undefined && now.enum === undefined) return;
  if (old.enum === undefined) {
    c.add('enum-added', true, `values restricted to ${show(now.enum)}`, TIGHTENED_WHY, where);
    return;
  }
  if (now.enum === undefined) {
    c.add('enum-removed', false, `the restriction to ${show(old.enum)} was lifted`, LOOSENED_WHY, where);
    return;
  }
  const afterValues = new Set(now.enum.map(show));
  const beforeValues = new Set(old.enum.map(show));
  const removed = old.enum.filter((v) => !afterValues.has(show(v)));
  const added = now.enum.filter((v) => !beforeValues.has(show(v)));
  if (removed.length > 0) {
    c.add('enum-narrowed', true, `enum values ${removed.map(show).join(', ')} removed`, 'objects holding a removed value can no longer be updated, and clients sending it fail', where);
  }
  if (added.length > 0) c.add('enum-widened', false, `enum values ${added.map(show).join(', ')} added`, `${LOOSENED_WHY} (clients that switch over the values may meet new ones)`, where);
}

function compareDefault(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  const where = { version, steps, target: 'field' as const, markers: ['kubebuilder:default', 'default'] };
  const had = old.default !== undefined;
  const has = now.default !== undefined;
  if (!had && !has) return;
  if (had && has && show(old.default) === show(now.default)) return;
  if (!had) {
    c.add('default-added', false, `default ${show(now.default)} added`, 'objects without the field read and store the default; every object valid before stays valid', where);
  } else if (!has) {
    c.add('default-removed', true, `default ${show(old.default)} removed`, 'objects created without the field no longer get a value that clients and the controller relied on', where);
  } else {
    c.add(
      'default-changed',
      true,
      `default changed from ${show(old.default)} to ${show(now.default)}`,
      'objects created (or read from storage) without the field get a different value than before',
      where,
    );
  }
}

/** Keywords compared as a whole: any change is breaking, a removal of a restriction is not. */
const WHOLE_KEYWORDS: { keyword: string; markers: string[]; loosenedWhenRemoved: boolean }[] = [
  { keyword: 'pattern', markers: [`${V}Pattern`], loosenedWhenRemoved: true },
  { keyword: 'multipleOf', markers: [`${V}MultipleOf`], loosenedWhenRemoved: true },
  { keyword: 'x-kubernetes-list-type', markers: ['listType'], loosenedWhenRemoved: false },
  { keyword: 'x-kubernetes-list-map-keys', markers: ['listMapKey'], loosenedWhenRemoved: false },
  { keyword: 'x-kubernetes-map-type', markers: ['mapType'], loosenedWhenRemoved: false },
  { keyword: 'x-kubernetes-embedded-resource', markers: [`${V}EmbeddedResource`], loosenedWhenRemoved: false },
  { keyword: 'anyOf', markers: [], loosenedWhenRemoved: false },
  { keyword: 'allOf', markers: [], loosenedWhenRemoved: false },
  { keyword: 'oneOf', markers: [], loosenedWhenRemoved: false },
];

function compareWhole(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  for (const { keyword, markers, loosenedWhenRemoved } of WHOLE_KEYWORDS) {
    const before = old[keyword];
    const after = now[keyword];
    if (show(before) === show(after)) continue;
    const where = { version, steps, target: 'field' as const, markers };
    if (after === undefined && loosenedWhenRemoved) {
      c.add(`${keyword}-removed`, false, `${keyword} ${show(before)} removed`, LOOSENED_WHY, where);
    } else if (keyword === 'pattern') {
      c.add(before === undefined ? 'pattern-added' : 'pattern-changed', true, before === undefined ? `pattern ${show(after)} added` : `pattern changed from ${show(before)} to ${show(after)}`, TIGHTENED_WHY, where);
    } else {
      const why = keyword.startsWith('x-kubernetes-list') || keyword === 'x-kubernetes-map-type'
        ? 'server-side apply merges and owns the list or map differently, and existing managedFields no longer match'
        : TIGHTENED_WHY;
      c.add(`${keyword}-changed`, true, `${keyword} changed from ${show(before) ?? 'unset'} to ${show(after) ?? 'unset'}`, why, where);
    }
  }
}

/** Type, format, int-or-string, nullable, preserve-unknown-fields: false from compareSchema when the type changed (no deeper look). */
function compareShape(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): boolean {
  const oldType = old['x-kubernetes-int-or-string'] === true ? 'int-or-string' : old.type;
  const newType = now['x-kubernetes-int-or-string'] === true ? 'int-or-string' : now.type;
  if (oldType !== newType) {
    const widened = newType === 'int-or-string' && (oldType === 'integer' || oldType === 'string');
    c.add(
      widened ? 'type-widened' : 'type-changed',
      !widened,
      `type changed from ${oldType ?? 'any'} to ${newType ?? 'any'}`,
      widened ? 'every value valid before is still valid (clients reading it must accept both forms)' : 'stored objects and clients hold values of the old type, which the new schema rejects or reads differently',
      { version, steps, target: 'field', markers: [`${V}Type`] },
    );
    return false;
  }
  if (old.format !== now.format) {
    const widened = (old.format === 'int32' && now.format === 'int64') || now.format === undefined;
    c.add(
      widened ? 'format-loosened' : 'format-changed',
      !widened,
      `format changed from ${old.format ?? 'none'} to ${now.format ?? 'none'}`,
      widened ? LOOSENED_WHY : 'values valid in the old format may be rejected or read differently',
      { version, steps, target: 'field', markers: [`${V}Format`, `${V}Type`] },
    );
  }
  if (old.nullable === true && now.nullable !== true) {
    c.add('nullable-removed', true, 'null is no longer accepted', TIGHTENED_WHY, { version, steps, target: 'field', markers: ['nullable'] });
  } else if (old.nullable !== true && now.nullable === true) {
    c.add('nullable-added', false, 'null is accepted', LOOSENED_WHY, { version, steps, target: 'field', markers: ['nullable'] });
  }
  const oldPreserve = old['x-kubernetes-preserve-unknown-fields'] === true;
  const newPreserve = now['x-kubernetes-preserve-unknown-fields'] === true;
  if (oldPreserve !== newPreserve) {
    c.add(
      newPreserve ? 'preserve-unknown-fields-added' : 'preserve-unknown-fields-removed',
      !newPreserve,
      newPreserve ? 'unknown fields are kept' : 'unknown fields are no longer kept (pruned)',
      newPreserve ? LOOSENED_WHY : 'data stored in fields the schema does not name is dropped on the next write',
      { version, steps, target: 'field', markers: ['kubebuilder:pruning:PreserveUnknownFields', `${V}Schemaless`] },
    );
  }
  return true;
}

function compareProperties(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  const before = old.properties ?? {};
  const after = now.properties ?? {};
  const oldRequired = new Set(old.required ?? []);
  const newRequired = new Set(now.required ?? []);
  const removed = Object.keys(before).filter((name) => !(name in after));
  const added = Object.keys(after).filter((name) => !(name in before));
  for (const name of removed) {
    // One field gone and one of the same type come: most likely a rename, said so.
    const twin = removed.length === 1 ? added.filter((a) => show(after[a]?.type) === show(before[name]?.type)) : [];
    c.add(
      'field-removed',
      true,
      twin.length === 1 ? `field ${name} removed (renamed to ${twin[0]}?)` : `field ${name} removed`,
      'stored objects lose its value on the next write, and clients that set or read it break',
      { version, steps: [...steps, { property: name }], target: 'owner' },
    );
  }
  for (const name of added) {
    const fieldSteps = [...steps, { property: name }];
    if (newRequired.has(name)) {
      c.add('required-field-added', true, `required field ${name} added`, 'existing objects lack it and can no longer be updated, and clients that do not send it fail', {
        version,
        steps: fieldSteps,
        target: 'field',
      });
    } else {
      c.add('field-added', false, `optional field ${name} added`, 'objects without it stay valid', { version, steps: fieldSteps, target: 'field' });
    }
  }
  for (const name of Object.keys(after)) {
    if (!(name in before)) continue;
    const fieldSteps = [...steps, { property: name }];
    const markers = ['kubebuilder:validation:Required', 'required', 'k8s:required', 'kubebuilder:validation:Optional', 'optional', 'k8s:optional'];
    if (newRequired.has(name) && !oldRequired.has(name)) {
      c.add('field-now-required', true, `field ${name} became required`, 'existing objects without it can no longer be updated, and clients that omit it fail', {
        version,
        steps: fieldSteps,
        target: 'field',
        markers,
      });
    } else if (!newRequired.has(name) && oldRequired.has(name)) {
      c.add('field-now-optional', false, `field ${name} became optional`, `${LOOSENED_WHY} (clients reading it must allow it to be missing)`, {
        version,
        steps: fieldSteps,
        target: 'field',
        markers,
      });
    }
    compareSchema(c, version, fieldSteps, before[name]!, after[name]!);
  }
}

function compareSchema(c: Comparison, version: string, steps: SchemaStep[], old: Schema, now: Schema): void {
  if (!compareShape(c, version, steps, old, now)) return;
  compareBounds(c, version, steps, old, now);
  compareEnum(c, version, steps, old, now);
  compareWhole(c, version, steps, old, now);
  compareDefault(c, version, steps, old, now);
  compareRules(c, version, steps, old, now);
  compareProperties(c, version, steps, old, now);
  if (old.items && now.items) compareSchema(c, version, [...steps, { items: true }], old.items, now.items);
  if (typeof old.additionalProperties === 'object' && typeof now.additionalProperties === 'object') {
    compareSchema(c, version, [...steps, { values: true }], old.additionalProperties, now.additionalProperties);
  }
}

function compareList(c: Comparison, what: string, code: string, before: string[] | undefined, after: string[] | undefined, removedBreaks: boolean): void {
  const now = new Set(after ?? []);
  const old = new Set(before ?? []);
  for (const name of before ?? []) {
    if (!now.has(name)) {
      c.add(`${code}-removed`, removedBreaks, `${what} ${show(name)} removed`, `\`kubectl get ${name}\` and scripts using it stop working`, {
        target: 'kind',
        markers: ['kubebuilder:resource'],
        idSuffix: name,
      });
    }
  }
  for (const name of after ?? []) {
    if (!old.has(name)) c.add(`${code}-added`, false, `${what} ${show(name)} added`, 'nothing that worked before stops working', { target: 'kind', markers: ['kubebuilder:resource'], idSuffix: name });
  }
}

function compareNames(c: Comparison, old: CustomResourceDefinition, now: CustomResourceDefinition): void {
  const resource = { target: 'kind' as const, markers: ['kubebuilder:resource'] };
  if (old.spec.group !== now.spec.group) {
    c.add('group-changed', true, `group changed from ${old.spec.group} to ${now.spec.group}`, 'it is a different resource to the API server: objects of the old group are not moved, and clients using it fail', {
      target: 'kind',
      markers: ['groupName'],
    });
  }
  for (const key of ['kind', 'listKind', 'plural', 'singular'] as const) {
    if (old.spec.names[key] === now.spec.names[key]) continue;
    const why =
      key === 'plural'
        ? 'the CRD is named after the plural: it is a new CRD, objects of the old one are not moved, and URLs and RBAC rules change'
        : 'clients, manifests and RBAC rules that name the old one break';
    c.add(`${key.toLowerCase()}-changed`, true, `${key} changed from ${old.spec.names[key]} to ${now.spec.names[key]}`, why, resource);
  }
  compareList(c, 'short name', 'short-name', old.spec.names.shortNames, now.spec.names.shortNames, true);
  compareList(c, 'category', 'category', old.spec.names.categories, now.spec.names.categories, true);
  if (old.spec.scope !== now.spec.scope) {
    c.add('scope-changed', true, `scope changed from ${old.spec.scope} to ${now.spec.scope}`, 'existing objects cannot be read at their new place, and every client URL changes', resource);
  }
}

function compareVersions(c: Comparison, old: CustomResourceDefinition, now: CustomResourceDefinition): void {
  const after = new Map(now.spec.versions.map((v) => [v.name, v]));
  const before = new Map(old.spec.versions.map((v) => [v.name, v]));
  const storageNow = now.spec.versions.find((v) => v.storage)?.name;
  const storageBefore = old.spec.versions.find((v) => v.storage)?.name;
  const note = STORED_VERSIONS_NOTE.replace('{crd}', now.metadata.name);
  for (const version of old.spec.versions) {
    const current = after.get(version.name);
    if (current === undefined) {
      c.add('version-removed', true, `version ${version.name} removed`, `clients using it fail, and ${note}`, {
        version: version.name,
        target: 'kind',
        markers: ['kubebuilder:storageversion'],
      });
      continue;
    }
    if (version.served && !current.served) {
      c.add('version-unserved', true, `version ${version.name} no longer served`, `clients using it fail, and ${note}`, {
        version: version.name,
        target: 'kind',
        markers: ['kubebuilder:unservedversion'],
      });
    } else if (!version.served && current.served) {
      c.add('version-served', false, `version ${version.name} served again`, 'nothing that worked before stops working', { version: version.name, target: 'kind' });
    }
    if (!version.deprecated && current.deprecated) {
      c.add('version-deprecated', false, `version ${version.name} deprecated`, 'clients get a warning; nothing stops working yet', {
        version: version.name,
        target: 'kind',
        markers: ['kubebuilder:deprecatedversion'],
      });
    }
    compareSubresources(c, version, current);
    compareSchema(c, version.name, [], version.schema.openAPIV3Schema, current.schema.openAPIV3Schema);
  }
  for (const version of now.spec.versions) {
    if (before.has(version.name)) continue;
    c.add('version-added', false, `version ${version.name} added`, 'clients of the other versions are not affected', { version: version.name, target: 'kind' });
  }
  if (storageBefore !== undefined && storageNow !== undefined && storageBefore !== storageNow && after.has(storageBefore)) {
    c.add(
      'storage-version-changed',
      false,
      `storage version changed from ${storageBefore} to ${storageNow}`,
      `new writes are stored in ${storageNow}; objects already stored in ${storageBefore} stay so (and ${storageBefore} in status.storedVersions) until migrated, so ${storageBefore} must stay served and convertible until then`,
      { version: storageNow, target: 'kind', markers: ['kubebuilder:storageversion'] },
    );
  }
}

function compareSubresources(c: Comparison, old: CrdVersion, now: CrdVersion): void {
  for (const name of ['status', 'scale'] as const) {
    const had = old.subresources?.[name] !== undefined;
    const has = now.subresources?.[name] !== undefined;
    if (had === has) continue;
    const where = { version: old.name, target: 'kind' as const, markers: [`kubebuilder:subresource:${name}`] };
    if (had) c.add(`${name}-subresource-removed`, true, `the ${name} subresource was removed`, `clients and controllers writing /${name} fail`, where);
    else c.add(`${name}-subresource-added`, false, `the ${name} subresource was added`, name === 'status' ? 'updates of the main resource now ignore status changes: controllers must write /status' : 'nothing that worked before stops working', where);
  }
}

/** Pairs today's CRDs with the ref's: by CRD name, then by group and kind, then by kind (a changed group or plural). */
function pair(old: CustomResourceDefinition[], now: CustomResourceDefinition[]): { pairs: [CustomResourceDefinition, CustomResourceDefinition][]; removed: CustomResourceDefinition[]; added: CustomResourceDefinition[] } {
  const pairs: [CustomResourceDefinition, CustomResourceDefinition][] = [];
  let oldLeft = [...old];
  let nowLeft = [...now];
  const keys: ((crd: CustomResourceDefinition) => string)[] = [(crd) => crd.metadata.name, (crd) => `${crd.spec.names.kind}.${crd.spec.group}`, (crd) => crd.spec.names.kind];
  for (const key of keys) {
    for (const before of [...oldLeft]) {
      const candidates = nowLeft.filter((crd) => key(crd) === key(before));
      if (candidates.length !== 1) continue;
      pairs.push([before, candidates[0]!]);
      oldLeft = oldLeft.filter((crd) => crd !== before);
      nowLeft = nowLeft.filter((crd) => crd !== candidates[0]);
    }
  }
  return { pairs, removed: oldLeft, added: nowLeft };
}

/** Every finding between the CRDs generated at the ref (`old`) and today's (`now`), CRD by CRD. */
export function compareCrds(old: CustomResourceDefinition[], now: CustomResourceDefinition[]): CompatFinding[] {
  const { pairs, removed, added } = pair(old, now);
  const findings: CompatFinding[] = [];
  for (const [before, after] of pairs) {
    const c = new Comparison(after.metadata.name, after.spec.group, after.spec.names.kind);
    compareNames(c, before, after);
    compareVersions(c, before, after);
    findings.push(...c.findings);
  }
  for (const crd of removed) {
    const c = new Comparison(crd.metadata.name, crd.spec.group, crd.spec.names.kind);
    const note = STORED_VERSIONS_NOTE.replace('{crd}', crd.metadata.name);
    c.add('crd-removed', true, `kind ${crd.spec.names.kind} removed`, `every client of it fails, and ${note}`, {
      version: crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name,
      target: 'kind',
      side: 'ref',
    });
    // Version-level id without a path: the version was given only to locate the kind.
    findings.push(...c.findings.map((f) => ({ ...f, id: `${crd.metadata.name}:crd-removed`, version: undefined })));
  }
  for (const crd of added) {
    const c = new Comparison(crd.metadata.name, crd.spec.group, crd.spec.names.kind);
    c.add('crd-added', false, `kind ${crd.spec.names.kind} added`, 'nothing that worked before stops working', {
      version: crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name,
      target: 'kind',
    });
    findings.push(...c.findings.map((f) => ({ ...f, id: `${crd.metadata.name}:crd-added`, version: undefined })));
  }
  return uniqueIds(findings);
}

/** Two findings never share an id (a second one gets `#2`, …), so every acknowledgement names one finding. */
function uniqueIds(findings: CompatFinding[]): CompatFinding[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const count = (seen.get(f.id) ?? 0) + 1;
    seen.set(f.id, count);
    return count === 1 ? f : { ...f, id: `${f.id}#${count}` };
  });
}
