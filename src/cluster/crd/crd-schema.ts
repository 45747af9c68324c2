/**
 * The OpenAPI v3 schema of a CRD version as the CRD code reads it: apiextensions v1 JSONSchemaProps
 * (kubernetes-types') with nested schemas typed, values (default, enum, example) unknown, and the
 * x-kubernetes extensions that type leaves out. A user wrote it: any other keyword is unknown, and the
 * structural checks look at what is really there before the other walkers rely on it.
 */
import type { JSONSchemaProps, ValidationRule } from 'kubernetes-types/apiextensions/v1.js';

type Retyped = 'additionalItems' | 'additionalProperties' | 'allOf' | 'anyOf' | 'oneOf' | 'not' | 'items' | 'properties' | 'patternProperties' | 'definitions' | 'dependencies' | 'default' | 'enum' | 'example';

export interface CrdSchema extends Omit<JSONSchemaProps, Retyped> {
  properties?: Record<string, CrdSchema>;
  /** One schema: a list of them is not structural (structuralErrors reports it). */
  items?: CrdSchema;
  additionalProperties?: CrdSchema | boolean;
  allOf?: CrdSchema[];
  anyOf?: CrdSchema[];
  oneOf?: CrdSchema[];
  not?: CrdSchema;
  default?: unknown;
  enum?: unknown[];
  example?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
  [keyword: string]: unknown;
}
