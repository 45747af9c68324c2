/** Decoding built-in objects as kube-apiserver's JSON decoder does: unknown fields by path, Go's type errors, self-decoding types. */
import { TypeDecodeError, decodeBuiltin } from './typed-decoding.js';

const job = 'io.k8s.api.batch.v1.Job';
const decodeError = (object: Record<string, unknown>, definition = job): string => {
  try {
    decodeBuiltin(object, definition);
  } catch (err) {
    if (err instanceof TypeDecodeError) return err.message;
    throw err;
  }
  throw new Error('decoded without error');
};
const jobWith = (container: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'j', labels: { a: 'b' } },
  spec: { ...spec, template: { spec: { containers: [{ name: 'c', image: 'x' }, { name: 'd', ...container }] } } },
});

test('unknown fields at any depth are removed in place and reported with list indices, in document order', () => {
  const object = jobWith({ foo: 1, ports: [{ containerPort: 1 }, { containerPort: 2, bar: true }] }, { extra: {} });
  (object.metadata as Record<string, unknown>).nope = 'x';
  expect(decodeBuiltin(object, job)).toEqual(['metadata.nope', 'spec.extra', 'spec.template.spec.containers[1].foo', 'spec.template.spec.containers[1].ports[1].bar']);
  expect(object).toEqual(jobWith({ ports: [{ containerPort: 1 }, { containerPort: 2 }] }));
});

test('known fields, nulls, maps, Quantities, IntOrStrings and times decode without complaint', () => {
  const object = jobWith(
    {
      resources: { limits: { cpu: 1, memory: '64Mi' }, requests: { cpu: '250m' } },
      livenessProbe: { httpGet: { port: 'http', path: null }, tcpSocket: { port: 8080 } },
      env: null,
    },
    { parallelism: 2, activeDeadlineSeconds: 2 ** 40, suspend: false, selector: { matchLabels: { x: 'y' } } },
  );
  (object as Record<string, unknown>).status = { startTime: '2026-11-22T10:00:00Z', uncountedTerminatedPods: { succeeded: ['u'] } };
  const copy = structuredClone(object);
  expect(decodeBuiltin(object, job)).toEqual([]);
  expect(object).toEqual(copy);
});

test('a wrong JSON type is reported as Go encoding/json does: innermost struct, field path without indices, Go type', () => {
  expect(decodeError(jobWith({}, { parallelism: 'x' }))).toBe('json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32');
  expect(decodeError(jobWith({ ports: 5 }))).toBe('json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.ports of type []v1.ContainerPort');
  expect(decodeError(jobWith({ ports: [{ containerPort: '80' }] }))).toBe(
    'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
  );
  expect(decodeError({ spec: { template: 'x' } })).toBe('json: cannot unmarshal string into Go struct field JobSpec.spec.template of type v1.PodTemplateSpec');
  expect(decodeError(jobWith({ name: true }))).toBe('json: cannot unmarshal bool into Go struct field Container.spec.template.spec.containers.name of type string');
  expect(decodeError(jobWith({ command: [1] }))).toBe('json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.command of type string');
  expect(decodeError({ metadata: { labels: { a: { b: 1 } } } })).toBe('json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string');
  expect(decodeError({ metadata: { labels: [] } })).toBe('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string');
  expect(decodeError({ spec: [] })).toBe('json: cannot unmarshal array into Go struct field Job.spec of type v1.JobSpec');
});

test('numbers that do not fit the integer type carry their literal', () => {
  expect(decodeError(jobWith({}, { backoffLimit: 1.5 }))).toBe('json: cannot unmarshal number 1.5 into Go struct field JobSpec.spec.backoffLimit of type int32');
  expect(decodeError(jobWith({}, { completions: 2 ** 31 }))).toBe('json: cannot unmarshal number 2147483648 into Go struct field JobSpec.spec.completions of type int32');
  expect(decodeError(jobWith({}, { activeDeadlineSeconds: 0.5 }))).toBe('json: cannot unmarshal number 0.5 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64');
});

test('the earliest wrong type in the document wins, and unknown fields do not hide it', () => {
  expect(decodeError(jobWith({ image: 5 }, { extra: 1, parallelism: 'x' }))).toBe('json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32');
});

test('types that decode themselves answer with their own errors', () => {
  expect(decodeError(jobWith({ resources: { limits: { cpu: true } } }))).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  expect(decodeError(jobWith({ resources: { limits: { cpu: 'lots' } } }))).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  expect(decodeError(jobWith({ resources: { limits: { memory: '5mm' } } }))).toBe("unable to parse quantity's suffix");
  expect(decodeError(jobWith({ livenessProbe: { httpGet: { port: true } } }))).toBe('json: cannot unmarshal bool into Go value of type int32');
  expect(decodeError(jobWith({ livenessProbe: { tcpSocket: { port: 1.5 } } }))).toBe('json: cannot unmarshal number 1.5 into Go value of type int32');
  expect(decodeError({ metadata: { creationTimestamp: 5 } })).toBe('json: cannot unmarshal number into Go value of type string');
});

test('a definition outside the catalogue is left to the caller', () => {
  expect(decodeBuiltin({ spec: { anything: 1 } }, 'io.k8s.api.example.v1.Nothing')).toBeUndefined();
});

test('at most 100 unknown fields are reported, all are dropped', () => {
  const extra = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`x${i}`, i]));
  const object = jobWith({ ...extra });
  const unknown = decodeBuiltin(object, job)!;
  expect(unknown).toHaveLength(100);
  expect(unknown[99]).toBe('spec.template.spec.containers[1].x99');
  expect(object).toEqual(jobWith({}));
});
