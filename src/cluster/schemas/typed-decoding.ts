/**
 * Decodes a request body against a built-in kind's schema the way kube-apiserver's JSON decoder
 * (sigs.k8s.io/json, Go encoding/json semantics) does: unknown fields at any depth are dropped and
 * reported by path (`spec.template.spec.containers[0].foo`), and the earliest value of the wrong JSON
 * type fails the decode with Go's message (`json: cannot unmarshal string into Go struct field
 * JobSpec.spec.parallelism of type int32`).
 */
import { type Schema, builtinDefinition, referencedName } from './builtin-schemas.js';
import { goTimeParseError } from './go-time-parse.js';
import { goFieldType } from './go-type-names.js';

/** A decode failure; `message` is the Go decoder's text, without the API server's prefix. */
export class TypeDecodeError extends Error {}

const maxStrictErrors = 100;
const quantityName = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const intOrStringName = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const quantityPattern = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const quantitySuffixes = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/**
 * Where a value sits, linked to its parent's place: the paths an error names are built only when one is
 * reported (most decodes report none), not for every value visited.
 */
interface Place {
  readonly parent: Place | undefined;
  /** The step from the parent: a JSON name or a list index. */
  readonly step: string | number | undefined;
  /** Whether the step reads a Go struct field (Go's error context names those only: no indices, no map keys). */
  readonly isField: boolean;
  /** Name of the innermost Go struct a field was read from. */
  readonly struct: string;
  /** Whether the value is an element of the field's slice or map rather than the field itself. */
  readonly element: boolean;
}

function stepsOf(at: Place): Place[] {
  const steps: Place[] = [];
  for (let p: Place | undefined = at; p?.parent; p = p.parent) steps.push(p);
  return steps.reverse();
}

/** Strict-error path: JSON names with list indices (`spec.containers[0].foo`). */
function pathOf(at: Place): string {
  let path = '';
  for (const { step } of stepsOf(at)) path = typeof step === 'number' ? `${path}[${step}]` : join(path, step!);
  return path;
}

/** Go error-context path: the struct field names only. */
function fieldsOf(at: Place): string[] {
  return stepsOf(at)
    .filter((p) => p.isField)
    .map((p) => p.step as string);
}

/** The JSON kind Go names in UnmarshalTypeError. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** MicroTime fields are inlined like Time ones; only their description tells them apart. */
function isMicroTime(schema: Schema): boolean {
  return typeof schema.description === 'string' && schema.description.startsWith('MicroTime is ');
}

function shortName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

/** The Go type reflect prints for a schema node (`int32`, `[]v1.Container`, `map[string]string`). */
function goType(schema: Schema): string {
  const ref = referencedName(schema);
  if (ref === quantityName) return 'resource.Quantity';
  if (ref === intOrStringName) return 'intstr.IntOrString';
  if (ref) return `v1.${shortName(ref)}`;
  if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.type) return 'interface {}';
  switch (schema.type) {
    case 'array': return `[]${goType(schema.items ?? {})}`;
    case 'object': return schema.additionalProperties ? `map[string]${goType(schema.additionalProperties)}` : 'struct';
    case 'integer': return schema.format === 'int64' ? 'int64' : 'int32';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'string':
      if (schema.format === 'byte') return '[]uint8';
      if (schema.format === 'date-time') return isMicroTime(schema) ? 'v1.MicroTime' : 'v1.Time';
      return 'string';
    default: return 'interface {}';
  }
}

class Decoder {
  readonly unknown: string[] = [];
  /** The first (earliest in the document) type error, as Go's decoder saves it. */
  private saved: string | undefined;

  private typeError(value: unknown, schema: Schema, at: Place, literal?: string): void {
    if (this.saved) return;
    const what = literal === undefined ? jsonKind(value) : `number ${literal}`;
    const fields = fieldsOf(at);
    const field = fields[fields.length - 1];
    const type = (field !== undefined ? goFieldType(at.struct, field, at.element) : undefined) ?? goType(schema);
    this.saved = fields.length
      ? `json: cannot unmarshal ${what} into Go struct field ${at.struct}.${fields.join('.')} of type ${type}`
      : `json: cannot unmarshal ${what} into Go value of type ${goType(schema)}`;
  }

  finish(): void {
    if (this.saved) throw new TypeDecodeError(this.saved);
  }

  value(value: unknown, schema: Schema, at: Place): void {
    if (value === null || value === undefined) return;
    const ref = referencedName(schema);
    if (ref === quantityName) return checkQuantity(value);
    if (ref === intOrStringName) return checkIntOrString(value);
    if (ref) {
      const target = builtinDefinition(ref);
      if (!target) return;
      if (target.properties) return this.struct(value, target, shortName(ref), schema, at);
      return this.value(value, target, at);
    }
    if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.type) return;
    switch (schema.type) {
      case 'string': return this.string(value, schema, at);
      case 'integer': return this.integer(value, schema, at);
      case 'number': return void (typeof value === 'number' || this.typeError(value, schema, at));
      case 'boolean': return void (typeof value === 'boolean' || this.typeError(value, schema, at));
      case 'array': return this.array(value, schema, at);
      case 'object':
        if (schema.properties) return this.struct(value, schema, at.struct, schema, at);
        return this.map(value, schema, at);
      default:
    }
  }

  private string(value: unknown, schema: Schema, at: Place): void {
    if (schema.format === 'date-time' && typeof value !== 'string') {
      // metav1.Time decodes itself: its own json.Unmarshal into a string fails without field context.
      throw new TypeDecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type string`);
    }
    if (schema.format === 'date-time') {
      // metav1.Time parses RFC 3339, metav1.MicroTime RFC 3339 with exactly six fractional digits
      const problem = goTimeParseError(value as string, isMicroTime(schema));
      if (problem) throw new TypeDecodeError(problem);
      return;
    }
    if (typeof value !== 'string') this.typeError(value, schema, at);
  }

  private integer(value: unknown, schema: Schema, at: Place): void {
    if (typeof value !== 'number') return this.typeError(value, schema, at);
    const limit = schema.format === 'int64' ? 2 ** 63 : 2 ** 31;
    if (!Number.isInteger(value) || value >= limit || value < -limit) this.typeError(value, schema, at, String(value));
  }

  private array(value: unknown, schema: Schema, at: Place): void {
    if (!Array.isArray(value)) return this.typeError(value, schema, at);
    const items = schema.items ?? {};
    value.forEach((item, i) => this.value(item, items, { parent: at, step: i, isField: false, struct: at.struct, element: true }));
  }

  private map(value: unknown, schema: Schema, at: Place): void {
    if (typeof value !== 'object' || Array.isArray(value)) return this.typeError(value, schema, at);
    const values = schema.additionalProperties;
    if (!values || typeof values !== 'object') return;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      this.value(item, values, { parent: at, step: key, isField: false, struct: at.struct, element: true });
    }
  }

  private struct(value: unknown, definition: Schema, structName: string, shown: Schema, at: Place): void {
    if (typeof value !== 'object' || Array.isArray(value)) return this.typeError(value, shown, at);
    const object = value as Record<string, unknown>;
    const properties: Record<string, Schema> = definition.properties ?? {};
    for (const key of Object.keys(object)) {
      const property = properties[key];
      if (!property) {
        // the decoder keeps at most 100 strict errors; every unknown field is dropped all the same
        if (this.unknown.length < maxStrictErrors) this.unknown.push(join(pathOf(at), key));
        delete object[key];
        continue;
      }
      this.value(object[key], property, { parent: at, step: key, isField: true, struct: structName, element: false });
      if (serialisesToNothing(object[key], property, structName)) delete object[key];
    }
  }
}

/**
 * Whether a decoded field vanishes when the typed object is written back (Go's omitempty, and the
 * protobuf round trip through storage): an empty or null map — every map of the built-in kinds is
 * omitempty — and an empty or null list of ObjectMeta (finalizers, ownerReferences, managedFields).
 */
function serialisesToNothing(value: unknown, schema: Schema, structName: string): boolean {
  const isMap = schema.type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object';
  if (isMap) return value === null || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
  if (structName === 'ObjectMeta' && schema.type === 'array') return value === null || (Array.isArray(value) && value.length === 0);
  return false;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** resource.Quantity decodes itself from a string or a number; anything else fails with its parse error. */
function checkQuantity(value: unknown): void {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  const match = text === undefined ? null : quantityPattern.exec(text);
  if (!match) throw new TypeDecodeError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  const suffix = match[2]!;
  if (!quantitySuffixes.has(suffix) && !/^[eE][-+]?[0-9]+$/.test(suffix)) throw new TypeDecodeError("unable to parse quantity's suffix");
}

/** intstr.IntOrString takes a string, or else decodes the value as an int32 on its own (no field context). */
function checkIntOrString(value: unknown): void {
  if (typeof value === 'string') return;
  if (typeof value !== 'number') throw new TypeDecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type int32`);
  if (!Number.isInteger(value) || value >= 2 ** 31 || value < -(2 ** 31)) {
    throw new TypeDecodeError(`json: cannot unmarshal number ${value} into Go value of type int32`);
  }
}

/**
 * Decodes `object` in place against the built-in definition `definition`: removes unknown fields and
 * returns their paths in document order; removes what the typed object would not serialise (empty maps); throws TypeDecodeError for a value of the wrong JSON type.
 * Returns undefined when the definition is not in the catalogue.
 */
export function decodeBuiltin(object: Record<string, unknown>, definition: string): string[] | undefined {
  const schema = builtinDefinition(definition);
  if (!schema) return undefined;
  const decoder = new Decoder();
  decoder.value(object, { allOf: [{ $ref: `#/components/schemas/${definition}` }] }, { parent: undefined, step: undefined, isField: false, struct: shortName(definition), element: false });
  decoder.finish();
  return decoder.unknown;
}
