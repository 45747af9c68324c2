/**
 * etcd's request size limit (`--max-request-bytes`, 1.5 MiB by default): a write whose key and value
 * exceed it is refused by etcd, and kube-apiserver 1.32 passes the error on as a 500 without a reason
 * (kubernetes/kubernetes#112152 is still open). The value is measured as JSON, as custom resources are
 * stored; built-in kinds, stored as protobuf on a real server, are measured the same way here.
 */
import { ApiError } from '../errors/status-errors.js';

export const etcdMaxRequestBytes = 1.5 * 1024 * 1024;

/** Throws etcd's "request is too large" for an object that would not fit in one etcd request. */
export function checkEtcdRequestSize(bucket: string, object: { metadata: { namespace?: string; name?: string } }): void {
  const { namespace, name } = object.metadata;
  const key = `/registry/${bucket}/${namespace ? `${namespace}/` : ''}${name}`;
  // a cheap bound first: most objects are far below it
  const json = JSON.stringify(object);
  if (json.length <= etcdMaxRequestBytes / 3 - key.length) return;
  if (Buffer.byteLength(key) + Buffer.byteLength(json) > etcdMaxRequestBytes) {
    throw new ApiError(500, '', 'etcdserver: request is too large');
  }
}
