/**
 * Go-JSON semantics of decoded messages on bodies built field by field: pointers set to zero kept,
 * non-pointer zeros left out under omitempty, nil slices without omitempty as null, inline embedded
 * structs, named slice types, the special types, packed and unknown fields, and the 400 messages of
 * malformed bodies.
 */
import { decodeMessageJson } from './message-json.js';
import { ProtobufBodyError, decodeKubernetesProtobuf, messageNameOf } from './kubernetes-messages.js';
import { formatGoDurationNanos as goDurationString } from '../../apimachinery/go-duration.js';

function varint(value: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? b | 0x80 : b);
  } while (v);
  return Buffer.from(out);
}
const bytesField = (n: number, payload: Buffer | string) => {
  const b = Buffer.from(payload);
  return Buffer.concat([varint((n << 3) | 2), varint(b.length), b]);
};
const varintField = (n: number, value: number | bigint) => Buffer.concat([varint(n << 3), varint(value)]);
const msg = (...parts: Buffer[]) => Buffer.concat(parts);
const envelope = (apiVersion: string, kind: string, raw: Buffer) =>
  Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytesField(1, msg(bytesField(1, apiVersion), bytesField(2, kind))), bytesField(2, raw)]);
const expectedConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' };

const apps = 'k8s.io.api.apps.v1';
const core = 'k8s.io.api.core.v1';

test('apiVersion/kind → message name', () => {
  expect(messageNameOf('apps/v1', 'Deployment')).toBe('k8s.io.api.apps.v1.Deployment');
  expect(messageNameOf('v1', 'Pod')).toBe('k8s.io.api.core.v1.Pod');
  expect(messageNameOf('rbac.authorization.k8s.io/v1', 'Role')).toBe('k8s.io.api.rbac.v1.Role');
  expect(messageNameOf('internal.apiserver.k8s.io/v1alpha1', 'StorageVersion')).toBe('k8s.io.api.apiserverinternal.v1alpha1.StorageVersion');
});

test('the option kinds every group version registers decode as meta/v1’s: kubectl drain’s DELETE body', () => {
  expect(messageNameOf('apps/v1', 'DeleteOptions')).toBe('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
  const body = envelope('v1', 'DeleteOptions', varintField(1, 0));
  expect(decodeKubernetesProtobuf(body, { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' })).toEqual({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
});

test('a pointer set to zero is kept; a non-pointer zero under omitempty is left out; unset without omitempty is null', () => {
  const spec = msg(varintField(1, 0), varintField(5, 0), varintField(7, 0), bytesField(3, msg()));
  const json = decodeMessageJson(spec, `${apps}.DeploymentSpec`) as Record<string, unknown>;
  // selector (*LabelSelector `json:"selector"`) and containers (`json:"containers"`) have no omitempty
  expect(json).toEqual({ replicas: 0, selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} });
});

test('negative int64 and int32 values, bools and nested maps of Quantity', () => {
  const container = msg(
    bytesField(1, 'c'),
    bytesField(8, msg(bytesField(1, msg(bytesField(1, 'cpu'), bytesField(2, bytesField(1, '500m')))))),
  );
  const podSpec = msg(bytesField(2, container), varintField(5, -30n), varintField(11, 1));
  expect(decodeMessageJson(podSpec, `${core}.PodSpec`)).toEqual({
    containers: [{ name: 'c', resources: { limits: { cpu: '500m' } } }],
    activeDeadlineSeconds: -30,
    hostNetwork: true,
  });
});

test('inline embedded structs merge into their parent (Volume.volumeSource, Probe.handler)', () => {
  const volume = msg(bytesField(1, 'scratch'), bytesField(2, bytesField(2, msg())));
  expect(decodeMessageJson(volume, `${core}.Volume`)).toEqual({ name: 'scratch', emptyDir: {} });
  const probe = msg(bytesField(1, bytesField(1, bytesField(1, 'true'))), varintField(2, 5));
  expect(decodeMessageJson(probe, `${core}.Probe`)).toEqual({ exec: { command: ['true'] }, initialDelaySeconds: 5 });
});

test('named slice types (ExtraValue) are arrays; IntOrString by its type', () => {
  const extra = bytesField(5, msg(bytesField(1, 'scopes'), bytesField(2, msg(bytesField(1, 'a'), bytesField(1, 'b')))));
  expect(decodeMessageJson(msg(bytesField(3, 'bob'), extra), 'k8s.io.api.authorization.v1.SubjectAccessReviewSpec')).toEqual({ user: 'bob', extra: { scopes: ['a', 'b'] } });
  const port = (targetPort: Buffer) => decodeMessageJson(msg(varintField(3, 80), bytesField(4, targetPort)), `${core}.ServicePort`);
  expect(port(msg(varintField(1, 1), bytesField(3, 'http')))).toEqual({ port: 80, targetPort: 'http' });
  expect(port(msg(varintField(1, 0), varintField(2, 8080)))).toEqual({ port: 80, targetPort: 8080 });
});

test('Time drops protobuf nanos, MicroTime keeps microseconds, zero times are null', () => {
  const seconds = Date.UTC(2024, 0, 2, 3, 4, 5) / 1000;
  const ts = msg(varintField(1, seconds), varintField(2, 123_456_789));
  const event = decodeMessageJson(msg(bytesField(1, msg(bytesField(8, ts))), bytesField(2, ts), bytesField(7, 'Scheduled')), 'k8s.io.api.events.v1.Event');
  // non-pointer structs are always written, as Go's encoder does (omitempty never drops a struct)
  expect(event).toEqual({
    metadata: { creationTimestamp: '2024-01-02T03:04:05Z' },
    eventTime: '2024-01-02T03:04:05.123456Z',
    reason: 'Scheduled',
    regarding: {},
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  });
  expect(decodeMessageJson(msg(bytesField(8, msg())), 'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta')).toEqual({ creationTimestamp: null });
});

test('Duration renders as Go duration strings', () => {
  expect(decodeMessageJson(varintField(1, 90_000_000_000n), 'k8s.io.apimachinery.pkg.apis.meta.v1.Duration')).toBe('1m30s');
  expect(goDurationString(5_400_000_000_000n)).toBe('1h30m0s');
  expect(goDurationString(1_500_000n)).toBe('1.5ms');
  expect(goDurationString(-2_000_000_001n)).toBe('-2.000000001s');
  expect(goDurationString(0n)).toBe('0s');
  expect(goDurationString(999n)).toBe('999ns');
});

test('RawExtension carries embedded JSON; bytes are base64', () => {
  const revision = msg(bytesField(2, bytesField(1, '{"spec":{"template":{}}}')), varintField(3, 2));
  expect(decodeMessageJson(revision, `${apps}.ControllerRevision`)).toEqual({ metadata: { creationTimestamp: null }, data: { spec: { template: {} } }, revision: 2 });
  expect(decodeMessageJson(bytesField(2, msg(bytesField(1, 'k'), bytesField(2, Buffer.from([0, 255])))), `${core}.Secret`)).toEqual({ metadata: { creationTimestamp: null }, data: { k: 'AP8=' } });
});

test('packed repeated scalars and unknown fields', () => {
  // SupplementalGroups (PodSecurityContext field 4, []int64) sent packed; field 99 is unknown and skipped
  const packed = msg(bytesField(4, msg(varint(1000), varint(2000))), varintField(99, 7));
  expect(decodeMessageJson(packed, `${core}.PodSecurityContext`)).toEqual({ supplementalGroups: [1000, 2000] });
});

describe('malformed bodies answer with the API server 400 messages', () => {
  const fail = (body: Buffer) => {
    try {
      decodeKubernetesProtobuf(body, expectedConfigMap);
    } catch (err) {
      expect(err).toBeInstanceOf(ProtobufBodyError);
      return (err as Error).message;
    }
    throw new Error('decoded');
  };

  test('no k8s envelope', () => {
    expect(fail(Buffer.from('{"kind":"ConfigMap"}'))).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    );
    expect(fail(Buffer.from('k8s\0', 'latin1'))).toBe('the object provided is unrecognized (must be of type ConfigMap): empty body (6b387300)');
  });

  test('a truncated object, a wrong wire type, an illegal tag, an unregistered kind', () => {
    expect(fail(envelope('v1', 'ConfigMap', Buffer.from([0x0a, 0x05, 0x0a])))).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF');
    expect(fail(envelope('v1', 'ConfigMap', varintField(1, 3)))).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field ObjectMeta');
    expect(fail(envelope('v1', 'ConfigMap', Buffer.from([0x00, 0x01])))).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: illegal tag 0 (wire type 0)');
    expect(fail(envelope('v1', 'Widget', msg()))).toBe(
      'Widget in version "v1" cannot be handled as a ConfigMap: no kind "Widget" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  test('a map value of the wrong wire type, a cut packed run', () => {
    expect(fail(envelope('v1', 'ConfigMap', bytesField(2, msg(bytesField(1, 'a'), varintField(2, 1)))))).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field Value',
    );
    const podSecurityContext = bytesField(14, bytesField(4, Buffer.from([0x80])));
    expect(fail(envelope('v1', 'Pod', bytesField(2, podSecurityContext)))).toBe('Pod in version "v1" cannot be handled as a ConfigMap: unexpected EOF');
  });

  test('an envelope without apiVersion and kind takes the endpoint type', () => {
    const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytesField(2, bytesField(2, msg(bytesField(1, 'a'), bytesField(2, '1'))))]);
    expect(decodeKubernetesProtobuf(body, expectedConfigMap)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: null }, data: { a: '1' } });
  });
});
