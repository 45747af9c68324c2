/**
 * What the CRD OpenAPI builder adds to a custom resource's published schema (buildKubeNative,
 * addTypeMetaProperties, addEmbeddedProperties): apiVersion and kind as TypeMeta describes them and
 * metadata as a reference to ObjectMeta with PartialObjectMetadata's description — always, replacing
 * whatever the CRD says of them — and the same three, with apiVersion and kind required, on every
 * x-kubernetes-embedded-resource object inside.
 */
import { builtinDefinition } from '../schemas/builtin-schemas.js';

import type { CrdSchema as Schema } from './crd-schema.js';
import { copyObject } from '../store/copy-object.js';

const objectMetaRef = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const metadataDescription = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const embeddedApiVersion = 'apiVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const embeddedKind = 'kind is a string value representing the type of this object. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** TypeMeta's apiVersion and kind properties, as every built-in kind publishes them. */
function typeMetaProperty(name: 'apiVersion' | 'kind'): Schema {
  return copyObject(builtinDefinition('io.k8s.api.core.v1.ConfigMap')!.properties![name]);
}

const metadataProperty = (): Schema => ({ allOf: [{ $ref: objectMetaRef }], description: metadataDescription });

/** Sets the three standard properties of the root (in place). */
export function addTypeMetaProperties(schema: Schema): void {
  schema.properties = { ...(schema.properties ?? {}), metadata: metadataProperty(), apiVersion: typeMetaProperty('apiVersion'), kind: typeMetaProperty('kind') };
}

/** Sets them on every embedded resource below `schema` (in place), requiring apiVersion and kind. */
export function addEmbeddedProperties(schema: Schema | undefined): void {
  if (!schema || typeof schema !== 'object') return;
  for (const child of Object.values(schema.properties ?? {})) addEmbeddedProperties(child as Schema);
  addEmbeddedProperties(schema.items);
  if (typeof schema.additionalProperties === 'object') addEmbeddedProperties(schema.additionalProperties);
  if (schema['x-kubernetes-embedded-resource'] !== true) return;
  schema.properties = {
    ...(schema.properties ?? {}),
    apiVersion: { ...typeMetaProperty('apiVersion'), description: embeddedApiVersion },
    kind: { ...typeMetaProperty('kind'), description: embeddedKind },
    metadata: metadataProperty(),
  };
  const required: string[] = schema.required ?? [];
  schema.required = [...required, ...['kind', 'apiVersion'].filter((r) => !required.includes(r))];
}
