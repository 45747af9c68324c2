/** Go type names in decode errors (named string types, their slices and maps) and Go's RFC 3339 time parsing. */
import { BUILTIN_DEFINITION_SOURCES } from './builtin-definitions.generated.js';
import { builtinDefinition } from './builtin-schemas.js';
import { GO_FIELD_TYPES } from './go-type-names.js';
import { goTimeParseError } from './go-time-parse.js';
import { TypeDecodeError, decodeBuiltin } from './typed-decoding.js';

const job = 'io.k8s.api.batch.v1.Job';
const lease = 'io.k8s.api.coordination.v1.Lease';
const decodeError = (object: Record<string, unknown>, definition = job): string => {
  try {
    decodeBuiltin(object, definition);
  } catch (err) {
    if (err instanceof TypeDecodeError) return err.message;
    throw err;
  }
  return 'decoded';
};
const podSpec = (spec: Record<string, unknown>) => ({ spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } } });

test('every entry names a field that exists in the 1.32 definitions', () => {
  const names = Object.keys(BUILTIN_DEFINITION_SOURCES);
  const missing = Object.keys(GO_FIELD_TYPES).filter((key) => {
    const [struct, field] = key.split('.') as [string, string];
    return !names.some((name) => name.endsWith(`.${struct}`) && builtinDefinition(name)?.properties?.[field] !== undefined);
  });
  expect(missing).toEqual([]);
});

test('named string types, their slices and named maps carry the Go type name', () => {
  expect(decodeError(podSpec({ restartPolicy: 1 }))).toBe('json: cannot unmarshal number into Go struct field PodSpec.spec.template.spec.restartPolicy of type v1.RestartPolicy');
  const caps = (add: unknown) => podSpec({ containers: [{ name: 'c', securityContext: { capabilities: { add } } }] });
  expect(decodeError(caps(['NET_ADMIN', 2]))).toBe('json: cannot unmarshal number into Go struct field Capabilities.spec.template.spec.containers.securityContext.capabilities.add of type v1.Capability');
  expect(decodeError(caps('NET_ADMIN'))).toBe('json: cannot unmarshal string into Go struct field Capabilities.spec.template.spec.containers.securityContext.capabilities.add of type []v1.Capability');
  expect(decodeError(podSpec({ containers: [{ name: 'c', resources: { limits: 'x' } }] }))).toBe('json: cannot unmarshal string into Go struct field ResourceRequirements.spec.template.spec.containers.resources.limits of type v1.ResourceList');
  expect(decodeError({ metadata: { labels: { a: 1 } } })).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
  expect(decodeError({ metadata: { uid: 5 } })).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID');
  expect(decodeError(podSpec({ containers: ['c'] }))).toBe('json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container');
});

test('times must be RFC 3339; MicroTimes need exactly six fractional digits', () => {
  expect(decodeError({ metadata: { creationTimestamp: 'yesterday' } })).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
  expect(decodeError({ metadata: { creationTimestamp: '2024-01-02T03:04:05.123Z' } })).toBe('decoded');
  expect(decodeError({ metadata: { creationTimestamp: '2024-01-02T03:04:05+01:00' } })).toBe('decoded');
  expect(decodeError({ metadata: { creationTimestamp: null } })).toBe('decoded');
  expect(decodeError({ spec: { renewTime: '2024-01-02T03:04:05.123000Z', acquireTime: '2024-01-02T03:04:05.000000+02:00' } }, lease)).toBe('decoded');
  expect(decodeError({ spec: { renewTime: '2024-01-02T03:04:05.123Z' } }, lease)).toBe('parsing time "2024-01-02T03:04:05.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"');
  expect(decodeError({ spec: { renewTime: 5 } }, lease)).toBe('json: cannot unmarshal number into Go value of type string');
});

test('Go time.Parse errors: literals, ranges, zones, extra text', () => {
  expect(goTimeParseError('')).toBe('parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"');
  expect(goTimeParseError('2024/01/02')).toBe('parsing time "2024/01/02" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/02" as "-"');
  expect(goTimeParseError('2024-01-02 03:04:05Z')).toBe('parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T"');
  expect(goTimeParseError('2024-13-02T03:04:05Z')).toBe('parsing time "2024-13-02T03:04:05Z": month out of range');
  expect(goTimeParseError('2023-02-29T03:04:05Z')).toBe('parsing time "2023-02-29T03:04:05Z": day out of range');
  expect(goTimeParseError('2024-02-29T03:04:05Z')).toBeUndefined();
  expect(goTimeParseError('2024-01-02T03:04:05')).toBe('parsing time "2024-01-02T03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
  expect(goTimeParseError('2024-01-02T03:04:05Zjunk')).toBe('parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk"');
  expect(goTimeParseError('2024-01-02T03:04:05.000000Z', true)).toBeUndefined();
  expect(goTimeParseError('2024-01-02T03:04:05Z', true)).toBe('parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
});
