/** Request keys: a request an event causes is keyed once, and compares and serialises as `{ namespace, name }`. */
import { keyOf, keyedRequest, parseKey, requestKey, requestOf } from './object.js';

describe('request keys', () => {
  test('requestOf remembers its key: requestKey gives keyOf’s key without building it again', () => {
    const req = requestOf({ metadata: { namespace: 'ns', name: 'a' } });
    expect(requestKey(req)).toBe('ns/a');
    expect(requestKey(req)).toBe(keyOf(req));
    expect(requestKey(requestOf({ metadata: { name: 'cluster-scoped' } }))).toBe('cluster-scoped');
  });

  test('a keyed request equals, and serialises as, a plain request', () => {
    const req = requestOf({ metadata: { namespace: 'ns', name: 'a' } });
    expect(req).toEqual({ namespace: 'ns', name: 'a' });
    expect(JSON.stringify(req)).toBe('{"namespace":"ns","name":"a"}');
    expect(Object.keys(req)).toEqual(['namespace', 'name']);
  });

  test('keyedRequest parses a queue key as parseKey does and keeps the key itself', () => {
    for (const key of ['ns/a', 'cluster-scoped', 'ns/a/b']) {
      const req = keyedRequest(key);
      expect(req).toEqual(parseKey(key));
      expect(requestKey(req)).toBe(key);
    }
  });

  test('requestKey of a plain request is keyOf', () => {
    expect(requestKey({ namespace: 'ns', name: 'b' })).toBe('ns/b');
    expect(requestKey({ namespace: '', name: 'c' })).toBe('c');
  });
});
