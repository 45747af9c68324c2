/**
 * PartialObjectMetadata reads (meta.k8s.io/v1): the Accept headers that ask the API server for only an
 * object's metadata, and the shape the client hands out — the object's own apiVersion and kind (as
 * controller-runtime sets on PartialObjectMetadata) with its full metadata and nothing else.
 */
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { apiVersionOf, type KindInfo } from './kinds.js';
import type { KubeObject } from './object.js';

/** Get and watch: each object (or watch event object) as PartialObjectMetadata. */
export const PARTIAL_OBJECT_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
/** List: a PartialObjectMetadataList. */
export const PARTIAL_OBJECT_METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

export interface PartialObjectMetadata extends KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

/** Accept header for reads of `info`: undefined (plain JSON) unless the kind is metadata-only. */
export function acceptFor(info: KindInfo, list: boolean): string | undefined {
  if (!info.metadataOnly) return undefined;
  return list ? PARTIAL_OBJECT_METADATA_LIST : PARTIAL_OBJECT_METADATA;
}

/** Server answers say kind PartialObjectMetadata; hand them out as the kind they describe. */
export function asDescribedKind<T extends KubeObject>(obj: T, info: KindInfo): T {
  obj.apiVersion = apiVersionOf(info);
  obj.kind = info.kind;
  return obj;
}
