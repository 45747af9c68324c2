// copyObject copies JSON data as structuredClone does: equal values, no shared object or array, unfrozen
// copies of frozen objects, unset (undefined) fields kept, an own "__proto__" key from JSON.parse kept as an
// own key (not the copy's prototype).
import { copyObject } from './copy-object.js';

describe('copyObject', () => {
  const pod = Object.freeze({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: Object.freeze({ name: 'web-0', labels: Object.freeze({ app: 'web' }), ownerReferences: Object.freeze([Object.freeze({ kind: 'ReplicaSet', controller: true })]) }),
    spec: { containers: [{ name: 'web', ports: [{ containerPort: 80 }], args: [] as string[] }], priority: 0, nodeName: undefined as string | undefined },
    status: { conditions: [{ type: 'Ready', lastProbeTime: null }], podIP: '', phase: 'Running' },
  });

  it('copies values equal to structuredClone’s, sharing no object or array, unfrozen', () => {
    const copy = copyObject(pod);
    expect(copy).toStrictEqual(structuredClone(pod));
    expect(Object.keys(copy.spec)).toEqual(['containers', 'priority', 'nodeName']);
    expect(copy).not.toBe(pod);
    expect(copy.metadata).not.toBe(pod.metadata);
    expect(copy.metadata.ownerReferences).not.toBe(pod.metadata.ownerReferences);
    expect(copy.metadata.ownerReferences[0]).not.toBe(pod.metadata.ownerReferences[0]);
    expect(copy.spec.containers[0]!.ports).not.toBe(pod.spec.containers[0]!.ports);
    expect(Object.isFrozen(copy) || Object.isFrozen(copy.metadata) || Object.isFrozen(copy.metadata.labels)).toBe(false);
    (copy.metadata.labels as { app: string }).app = 'changed';
    expect(pod.metadata.labels.app).toBe('web');
  });

  it('returns scalars as they are', () => {
    expect([copyObject('a'), copyObject(0), copyObject(false), copyObject(null), copyObject(undefined)]).toEqual(['a', 0, false, null, undefined]);
  });

  it('keeps an own "__proto__" key of parsed JSON as an own key', () => {
    const parsed = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"x"}}') as { metadata: Record<string, unknown> };
    const copy = copyObject(parsed);
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect((copy.metadata as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy.metadata)).toEqual(['__proto__', 'name']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
    expect(copy).toStrictEqual(structuredClone(parsed));
  });
});
