/**
 * Applies field- and type-level schema markers (controller-gen §8–§10) to one schema node, in controller-gen's
 * priority order (Type/XIntOrString/listType/+default first, OneOf markers last, `items:` markers after all),
 * with the same type checks and error texts. Markers that need the surrounding struct (required/optional,
 * k8s:immutable, Schemaless, OneOf) are handled by the struct builder; markers for other generators are ignored.
 */
import type { Diagnostic, Marker, MarkerValue } from '../../markers/types.js';
import { withRuleOrigin } from './rule-origins.js';
import type { Schema } from './schema.js';

export interface MarkerContext {
  /** `field "x" of T` / `type T`, prefixed to messages. */
  owner: string;
  diagnostics: Diagnostic[];
}

const PRIORITY_9 = new Set(['kubebuilder:validation:Type', 'kubebuilder:validation:XIntOrString', 'listType', 'k8s:listType', 'default']);
const PRIORITY_LATE: Record<string, number> = {
  'kubebuilder:validation:AtMostOneOf': 11,
  'kubebuilder:validation:ExactlyOneOf': 12,
  'kubebuilder:validation:AtLeastOneOf': 13,
};
const ITEMS_PREFIX = 'kubebuilder:validation:items:';
const VALIDATION_PREFIX = 'kubebuilder:validation:';

function priority(name: string): number {
  return PRIORITY_9.has(name) ? 9 : (PRIORITY_LATE[name] ?? 10);
}

/** The anonymous value of a marker. */
function value(m: Marker): MarkerValue | undefined {
  return m.args[''];
}

/** Go's name for a parsed marker value's type, as in controller-gen's `expected string, got int`. */
function goTypeName(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (v !== null && typeof v === 'object') return 'map[string]interface {}';
  return typeof v;
}

type Handler = (node: Schema, m: Marker, fail: (message: string) => void) => void;

function numeric(keyword: 'maximum' | 'minimum' | 'multipleOf'): Handler {
  const lower = keyword.toLowerCase();
  return (node, m, fail) => {
    const v = Number(value(m));
    if (node.type !== 'integer' && node.type !== 'number') return fail(`must apply ${lower} to a numeric value, found ${node.type ?? ''}`);
    if (node.type === 'integer' && !Number.isInteger(v))
      return fail(`cannot apply non-integral ${lower} validation (${v}) to integer value`);
    node[keyword] = v;
  };
}

function exclusive(keyword: 'exclusiveMaximum' | 'exclusiveMinimum'): Handler {
  return (node, m, fail) => {
    if (node.type !== 'integer' && node.type !== 'number')
      return fail(`must apply ${keyword.toLowerCase()} to a numeric value, found ${node.type ?? ''}`);
    if (value(m) === true || value(m) === undefined) node[keyword] = true;
  };
}

function textual(keyword: 'maxLength' | 'minLength' | 'pattern'): Handler {
  return (node, m, fail) => {
    if (node.type !== 'string' && node['x-kubernetes-int-or-string'] !== true)
      return fail(`must apply ${keyword.toLowerCase()} to a textual value, found type "${node.type ?? ''}"`);
    node[keyword] = keyword === 'pattern' ? String(value(m)) : Number(value(m));
  };
}

function sized(keyword: 'maxItems' | 'minItems' | 'maxProperties' | 'minProperties'): Handler {
  const isArray = keyword.endsWith('Items');
  const label = isArray ? (keyword === 'maxItems' ? 'maxitem' : 'minitems') : keyword.toLowerCase();
  return (node, m, fail) => {
    if (node.type !== (isArray ? 'array' : 'object')) return fail(`must apply ${label} to ${isArray ? 'an array' : 'an object'}`);
    node[keyword] = Number(value(m));
  };
}

const REASONS = ['FieldValueRequired', 'FieldValueInvalid', 'FieldValueForbidden', 'FieldValueDuplicate'];

const xValidation: Handler = (node, m, fail) => {
  const rule: Record<string, unknown> = {};
  for (const key of ['fieldPath', 'message', 'messageExpression', 'reason', 'rule'] as const) {
    const v = m.args[key];
    if (typeof v === 'string' && v !== '') rule[key] = v;
  }
  if (m.args.optionalOldSelf !== undefined) rule.optionalOldSelf = m.args.optionalOldSelf;
  if (rule.reason !== undefined && !REASONS.includes(rule.reason as string))
    return fail(`invalid reason ${String(rule.reason)}, valid values are FieldValueRequired, FieldValueInvalid, FieldValueForbidden and FieldValueDuplicate`);
  node['x-kubernetes-validations'] = [...((node['x-kubernetes-validations'] as unknown[]) ?? []), withRuleOrigin(rule, m)];
};

/** `+default=<JSON>` (Kubernetes style): JSON text; `ref(...)` is ignored. */
const kubernetesDefault: Handler = (node, m, fail) => {
  const v = value(m);
  if (typeof v === 'string') {
    if (v.startsWith('ref(')) return;
    try {
      node.default = JSON.parse(v);
    } catch {
      if (/^[[{"]/.test(v)) return fail(`invalid JSON in +default: ${v}`);
      node.default = v;
    }
    return;
  }
  node.default = v;
};

const kubebuilderDefault: Handler = (node, m) => {
  const v = value(m);
  const isEmptyMap = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
  node.default = node.type === 'array' && isEmptyMap ? [] : v;
};

const HANDLERS: Record<string, Handler> = {
  [`${VALIDATION_PREFIX}Maximum`]: numeric('maximum'),
  [`${VALIDATION_PREFIX}Minimum`]: numeric('minimum'),
  [`${VALIDATION_PREFIX}MultipleOf`]: numeric('multipleOf'),
  [`${VALIDATION_PREFIX}ExclusiveMaximum`]: exclusive('exclusiveMaximum'),
  [`${VALIDATION_PREFIX}ExclusiveMinimum`]: exclusive('exclusiveMinimum'),
  [`${VALIDATION_PREFIX}MaxLength`]: textual('maxLength'),
  [`${VALIDATION_PREFIX}MinLength`]: textual('minLength'),
  [`${VALIDATION_PREFIX}Pattern`]: textual('pattern'),
  [`${VALIDATION_PREFIX}MaxItems`]: sized('maxItems'),
  [`${VALIDATION_PREFIX}MinItems`]: sized('minItems'),
  [`${VALIDATION_PREFIX}MaxProperties`]: sized('maxProperties'),
  [`${VALIDATION_PREFIX}MinProperties`]: sized('minProperties'),
  [`${VALIDATION_PREFIX}UniqueItems`]: (node, m, fail) => {
    if (node.type !== 'array') return fail('must apply uniqueitems to an array');
    if (value(m) !== false) node.uniqueItems = true;
  },
  [`${VALIDATION_PREFIX}Enum`]: (node, m) => {
    const v = value(m);
    node.enum = Array.isArray(v) ? [...v] : [v];
  },
  [`${VALIDATION_PREFIX}Format`]: (node, m) => void (node.format = String(value(m))),
  [`${VALIDATION_PREFIX}Type`]: (node, m) => void (node.type = String(value(m))),
  [`${VALIDATION_PREFIX}XPreserveUnknownFields`]: (node) => void (node['x-kubernetes-preserve-unknown-fields'] = true),
  'kubebuilder:pruning:PreserveUnknownFields': (node) => void (node['x-kubernetes-preserve-unknown-fields'] = true),
  [`${VALIDATION_PREFIX}XEmbeddedResource`]: (node) => void (node['x-kubernetes-embedded-resource'] = true),
  [`${VALIDATION_PREFIX}EmbeddedResource`]: (node) => void (node['x-kubernetes-embedded-resource'] = true),
  [`${VALIDATION_PREFIX}XIntOrString`]: (node) => void (node['x-kubernetes-int-or-string'] = true),
  [`${VALIDATION_PREFIX}XValidation`]: xValidation,
  nullable: (node) => void (node.nullable = true),
  'kubebuilder:default': kubebuilderDefault,
  default: kubernetesDefault,
  'kubebuilder:example': (node, m) => void (node.example = value(m)),
  'kubebuilder:title': (node, m, fail) => {
    const v = value(m);
    if (typeof v !== 'string') return fail(`expected string, got ${goTypeName(v)}`);
    node.title = v;
  },
  'kubebuilder:externalDocs': (node, m, fail) => {
    const url = String(m.args.url ?? '');
    try {
      new URL(url);
    } catch {
      return fail(`invalid url "${url}" in kubebuilder:externalDocs marker: not an absolute URL`);
    }
    const description = m.args.description;
    node.externalDocs = { ...(typeof description === 'string' && description ? { description } : {}), url };
  },
  listType: (node, m, fail) => {
    if (node.type !== 'array') return fail(`must apply listType to an array, found ${node.type ?? ''}`);
    const v = String(value(m));
    if (!['map', 'set', 'atomic'].includes(v)) return fail('ListType must be either "map", "set" or "atomic"');
    node['x-kubernetes-list-type'] = v;
  },
  listMapKey: (node, m, fail) => {
    if (node.type !== 'array') return fail(`must apply listMapKey to an array, found ${node.type ?? ''}`);
    if (node['x-kubernetes-list-type'] !== 'map') return fail('must apply listMapKey to an associative-list');
    node['x-kubernetes-list-map-keys'] = [...((node['x-kubernetes-list-map-keys'] as unknown[]) ?? []), String(value(m))];
  },
  mapType: (node, m, fail) => {
    if (node.type !== 'object') return fail('must apply mapType to an object');
    const v = String(value(m));
    if (!['granular', 'atomic'].includes(v)) return fail('MapType must be either "granular" or "atomic"');
    node['x-kubernetes-map-type'] = v;
  },
  structType: (node, m, fail) => {
    if (node.type !== undefined && node.type !== 'object')
      return fail('must apply structType to an object; either explicitly set or defaulted through an empty schema type');
    const v = String(value(m));
    if (!['granular', 'atomic'].includes(v)) return fail('StructType must be either "granular" or "atomic"');
    node['x-kubernetes-map-type'] = v;
  },
};

// controller-tools HEAD: `+k8s:listType` / `+k8s:listMapKey` are the same markers as `+listType` / `+listMapKey`.
HANDLERS['k8s:listType'] = HANDLERS.listType!;
HANDLERS['k8s:listMapKey'] = HANDLERS.listMapKey!;

/** True when the marker changes a schema node (so the struct builder and this module agree on what is handled). */
export function isSchemaMarker(name: string): boolean {
  return name in HANDLERS || (name.startsWith(ITEMS_PREFIX) && `${VALIDATION_PREFIX}${name.slice(ITEMS_PREFIX.length)}` in HANDLERS);
}

function sortByPriority(markers: readonly Marker[]): Marker[] {
  return markers
    .map((m, i) => ({ m, i }))
    .sort((a, b) => priority(a.m.name) - priority(b.m.name) || a.i - b.i)
    .map((x) => x.m);
}

/** Applies the schema markers among `markers` to `node` (mutates it). */
export function applySchemaMarkers(node: Schema, markers: readonly Marker[], ctx: MarkerContext): void {
  const direct = markers.filter((m) => m.name in HANDLERS);
  const items = markers.filter((m) => m.name.startsWith(ITEMS_PREFIX));
  for (const m of sortByPriority(direct)) {
    HANDLERS[m.name]!(node, m, (message) =>
      ctx.diagnostics.push({ position: m.position, message: `${ctx.owner}: ${message} (${m.text})` }),
    );
  }
  for (const m of sortByPriority(items.map((x) => ({ ...x, name: `${VALIDATION_PREFIX}${x.name.slice(ITEMS_PREFIX.length)}` })))) {
    const handler = HANDLERS[m.name];
    if (!handler) continue;
    const fail = (message: string): void => {
      ctx.diagnostics.push({ position: m.position, message: `${ctx.owner}: ${message} (${m.text})` });
    };
    if (node.type !== 'array' || !node.items) {
      fail(`must apply kubebuilder:validation:items:${m.name.slice(VALIDATION_PREFIX.length)} to an array value, found ${node.type ?? ''}`);
      continue;
    }
    node.items = { ...node.items }; // the items schema may be shared with other uses of its type
    handler(node.items, m, fail);
  }
}
