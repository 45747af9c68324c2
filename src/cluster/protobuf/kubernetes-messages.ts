/**
 * The `k8s\0` protobuf envelope (runtime.Unknown) around a Kubernetes API object: reads its apiVersion and
 * kind, finds the object's message among the generated descriptors, and decodes it into the JSON object.
 */
import { decodeMessageJson, isKnownMessage } from './message-json.js';
import { ProtobufDecodeError, WIRE_BYTES, readFields } from './wire-format.js';

const prefix = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The proto package of an API group version: k8s.io/api's directory is the group's first DNS label. */
export function protoPackageOf(group: string, version: string): string {
  if (group === '') return `k8s.io.api.core.${version}`;
  if (group === 'meta.k8s.io') return `k8s.io.apimachinery.pkg.apis.meta.${version}`;
  if (group === 'metrics.k8s.io') return `k8s.io.metrics.pkg.apis.metrics.${version}`;
  if (group === 'internal.apiserver.k8s.io') return `k8s.io.api.apiserverinternal.${version}`;
  return `k8s.io.api.${group.split('.')[0]}.${version}`;
}

/** The option kinds metav1.AddToGroupVersion registers in every group version: their message is meta/v1's. */
const metaOptionKinds = new Set(['ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);

/**
 * The full message name of a kind (`apps/v1`, `Deployment` → `k8s.io.api.apps.v1.Deployment`); an option
 * kind in any group version (`v1`, `DeleteOptions`, as client-go sends a DELETE's body) is meta/v1's.
 */
export function messageNameOf(apiVersion: string, kind: string): string {
  if (metaOptionKinds.has(kind)) return `k8s.io.apimachinery.pkg.apis.meta.v1.${kind}`;
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${protoPackageOf(group, version)}.${kind}`;
}

/** The type the request's endpoint expects, used where the envelope leaves apiVersion or kind out. */
export interface DefaultKind {
  apiVersion: string;
  kind: string;
}

/** True when the kind's protobuf message is among the generated tables. */
export function decodesKind(type: DefaultKind): boolean {
  return isKnownMessage(messageNameOf(type.apiVersion, type.kind));
}

/**
 * A protobuf body that cannot be decoded, with the API server's 400 message: naming the envelope's kind
 * when it was read, else summarising the body (its first 30 bytes, as text when it looks like JSON, else hex).
 */
export class ProtobufBodyError extends Error {}

function bodyError(err: ProtobufDecodeError, body: Buffer, expected: DefaultKind, found?: DefaultKind): ProtobufBodyError {
  if (found?.kind) {
    const version = found.apiVersion.slice(found.apiVersion.indexOf('/') + 1);
    return new ProtobufBodyError(`${found.kind} in version "${version}" cannot be handled as a ${expected.kind || found.kind}: ${err.message}`);
  }
  const head = body.subarray(0, 30);
  const summary = body.length === 0 ? '<empty>' : `${body[0] === 0x7b ? head.toString('utf8') : head.toString('hex')}${body.length > 30 ? ' ...' : ''}`;
  return new ProtobufBodyError(`the object provided is unrecognized (must be of type ${expected.kind}): ${err.message} (${summary})`);
}

/** The envelope's apiVersion/kind and raw object bytes. */
export function readEnvelope(body: Buffer, defaults: DefaultKind): { apiVersion: string; kind: string; raw: Buffer } {
  if (body.length === 0) throw new ProtobufDecodeError('empty data');
  if (body.length < prefix.length || !body.subarray(0, prefix.length).equals(prefix)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${[...prefix].join(' ')}]`);
  }
  if (body.length === prefix.length) throw new ProtobufDecodeError('empty body');
  let apiVersion = '';
  let kind = '';
  let raw: Buffer = Buffer.alloc(0);
  for (const f of readFields(body.subarray(prefix.length), 'Unknown')) {
    if (f.number === 1 && f.wire === WIRE_BYTES) {
      for (const t of readFields(f.bytes!, 'TypeMeta')) {
        if (t.number === 1 && t.wire === WIRE_BYTES) apiVersion = t.bytes!.toString('utf8');
        if (t.number === 2 && t.wire === WIRE_BYTES) kind = t.bytes!.toString('utf8');
      }
    }
    if (f.number === 2 && f.wire === WIRE_BYTES) raw = f.bytes!;
  }
  return { apiVersion: apiVersion || defaults.apiVersion, kind: kind || defaults.kind, raw };
}

/**
 * Decodes a `k8s\0` envelope into the JSON object it carries; `expected` is the endpoint's kind (it fills an
 * envelope without apiVersion or kind, and names the type in errors). Throws ProtobufBodyError.
 */
export function decodeKubernetesProtobuf(body: Buffer, expected: DefaultKind): Record<string, unknown> {
  let envelope: ReturnType<typeof readEnvelope>;
  try {
    envelope = readEnvelope(body, expected);
  } catch (err) {
    if (err instanceof ProtobufDecodeError) throw bodyError(err, body, expected);
    throw err;
  }
  const { apiVersion, kind, raw } = envelope;
  try {
    const message = messageNameOf(apiVersion, kind);
    if (!isKnownMessage(message)) {
      throw new ProtobufDecodeError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
    }
    return { kind, apiVersion, ...(decodeMessageJson(raw, message) as Record<string, unknown>) };
  } catch (err) {
    if (err instanceof ProtobufDecodeError) throw bodyError(err, body, expected, { apiVersion, kind });
    throw err;
  }
}
