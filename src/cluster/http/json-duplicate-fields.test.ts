/** Duplicate-key detection in JSON bodies: paths as the strict decoder names them, and no false alarms. */
import { duplicateFields } from './json-duplicate-fields.js';

const find = (text: string): string[] => duplicateFields(text, JSON.parse(text));

test('duplicated keys are named with their path, at the second occurrence, in document order', () => {
  expect(find('{"a":1,"a":2}')).toEqual(['a']);
  expect(find('{"metadata":{"labels":{"x":"1","y":"2","x":"3"}},"kind":"Pod","kind":"Pod"}')).toEqual(['metadata.labels.x', 'kind']);
  expect(find('{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","name":"c"}]}}')).toEqual(['spec.containers[1].name']);
  expect(find('{"l":[[1,2],{"k":1,"k":2}]}')).toEqual(['l[1].k']);
  expect(find('{"a":1,"a":2,"a":3,"b":{"a":1,"a":2}}')).toEqual(['a', 'b.a']);
});

test('colons and quotes inside strings, escaped keys and empty bodies raise no alarm', () => {
  expect(find('{"a":"x:y","b":"\\"a\\":1","c:d":{"e":"http://h:1"}}')).toEqual([]);
  expect(find('{"a\\u003a":1,"b":[1,2,3]}')).toEqual([]);
  expect(find('{"a\\u003a":1,"a:":2}')).toEqual(['a:']);
  expect(find('{"a\\\\":1,"a\\\\":2}')).toEqual(['a\\']);
  expect(find('[]')).toEqual([]);
  expect(find('"x"')).toEqual([]);
  expect(find('{}')).toEqual([]);
});
