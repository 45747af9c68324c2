/**
 * Metadata-only watches and reads (controller-runtime's `builder.OnlyMetadata` / PartialObjectMetadata):
 * `metadataOnly(BuiltinKinds.Secret)` is a kind reference whose lists, watches and gets ask the API
 * server for metadata only, so its informer caches names, labels, annotations, owner references and
 * finalizers without specs, data or status — far less memory for kinds an operator only needs to
 * notice (owned Secrets, ConfigMaps, Pods). Use it wherever a kind goes: `builder.owns(...)`,
 * `cache.informerFor(...)`, `client.get/list(...)`. The cache keeps it apart from a full informer of the
 * same kind; writes (patch of labels or finalizers) go through the object's own kind.
 */
import type { KindInfo } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import type { PartialObjectMetadata } from '../client/partial-metadata.js';

const metadataKinds = new WeakMap<KindInfo, KindInfo<PartialObjectMetadata>>();

/** The metadata-only view of a kind (one shared reference per kind, so caches find the same informer). */
export function metadataOnly<T extends KubeObject>(kind: KindInfo<T>): KindInfo<PartialObjectMetadata> {
  if (kind.metadataOnly) return kind as unknown as KindInfo<PartialObjectMetadata>;
  let view = metadataKinds.get(kind as KindInfo);
  if (!view) {
    view = { group: kind.group, version: kind.version, kind: kind.kind, plural: kind.plural, namespaced: kind.namespaced, metadataOnly: true };
    metadataKinds.set(kind as KindInfo, view);
  }
  return view;
}
