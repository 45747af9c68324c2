/**
 * Merging of a referenced type's schema with the schema at its use site (controller-gen §7 "flattening"):
 * docs from the use site win, properties merge recursively, required is unioned, validations concatenate
 * (use site first), the type's enum wins, and any other keyword set differently on both sides moves into a
 * two-entry `allOf: [typeSide, useSide]`.
 */
import { byteCompare, deepEqual, DOC_KEYWORDS, type Schema } from './schema.js';

/** Keywords controller-gen v0.21.0 compares by pointer, so both values go to allOf even when equal. */
const NEVER_EQUAL = new Set(['minProperties', 'maxProperties', 'x-kubernetes-list-map-keys']);

function isScalar(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

export interface MergeOptions {
  /**
   * Embedded structs (controller-gen's FlattenEmbedded): docs (description, title, example, externalDocs) are
   * never merged, dst keeps its own even where it has none. Otherwise (a reference): the use site's docs win.
   */
  keepDestinationDocs?: boolean;
}

/**
 * Merges `src` (use site) into `dst` (type side) and returns dst. Only dst's own top level is written to:
 * nested schemas of either side may be shared (frozen) and are copied before they change, so dst may be a
 * shallow copy of a cached schema. `onTypeConflict` reports `type` disagreements (dst is kept).
 */
export function mergeSchemas(
  dst: Schema,
  src: Schema,
  onTypeConflict: (dstType: string, srcType: string) => void,
  options: MergeOptions = {},
): Schema {
  const typeSide: Schema = {};
  const useSide: Schema = {};
  for (const [key, srcValue] of Object.entries(src)) {
    if (srcValue === undefined || key === '$link') continue;
    if ((DOC_KEYWORDS as readonly string[]).includes(key)) {
      if (!options.keepDestinationDocs && srcValue !== '' && srcValue !== null) dst[key] = srcValue;
      continue;
    }
    if (!(key in dst)) {
      dst[key] = srcValue;
      continue;
    }
    const dstValue = dst[key];
    switch (key) {
      case 'properties': {
        const merged = { ...dst.properties };
        for (const [name, prop] of Object.entries(src.properties ?? {}))
          merged[name] = merged[name] ? mergeSchemas({ ...merged[name] }, prop, onTypeConflict, options) : prop;
        dst.properties = merged;
        break;
      }
      case 'items':
        dst.items = mergeSchemas({ ...dst.items }, src.items!, onTypeConflict, options);
        break;
      case 'additionalProperties':
        if (typeof dstValue === 'object' && typeof srcValue === 'object')
          dst.additionalProperties = mergeSchemas({ ...(dstValue as Schema) }, srcValue as Schema, onTypeConflict, options);
        else dst.additionalProperties = srcValue as Schema | boolean;
        break;
      case 'required':
        dst.required = [...new Set([...(dst.required ?? []), ...(src.required ?? [])])].sort(byteCompare);
        break;
      case 'x-kubernetes-preserve-unknown-fields':
      case 'x-kubernetes-map-type':
        dst[key] = srcValue;
        break;
      case 'x-kubernetes-validations':
        dst[key] = [...(srcValue as unknown[]), ...(dstValue as unknown[])];
        break;
      case 'enum':
        break;
      case 'allOf':
        dst.allOf = [...(dst.allOf ?? []), ...(src.allOf ?? [])];
        break;
      case 'type':
        if (dstValue !== srcValue) onTypeConflict(String(dstValue), String(srcValue));
        break;
      default:
        if (!NEVER_EQUAL.has(key) && isScalar(dstValue) && deepEqual(dstValue, srcValue)) break;
        typeSide[key] = dstValue;
        useSide[key] = srcValue;
        delete dst[key];
    }
  }
  if (Object.keys(typeSide).length > 0) dst.allOf = [...(dst.allOf ?? []), typeSide, useSide];
  return dst;
}
