/**
 * A JSON patch whose operations fail answers as kube-apiserver 1.32 does: the patch handler wraps
 * every jsonpatch Apply error in NewGenericServerResponse(422, …, isUnexpectedResponse=false), which
 * keeps only the generic 422 text (the json-patch library's own message is dropped) — so kubectl
 * prints "The request is invalid: the server rejected our request due to an error in our request".
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const cm = '/api/v1/namespaces/default/configmaps/patched';
const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
const rejected = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}\n';

beforeAll(async () => {
  await suite.kubectl.ok(['create', 'configmap', 'patched', '--from-literal=x=1']);
});

test.each([
  ['a failed test', [{ op: 'test', path: '/data/x', value: '2' }]],
  ['a remove of a missing key', [{ op: 'remove', path: '/data/nope' }]],
  ['a replace of a missing key', [{ op: 'replace', path: '/data/nope', value: 'v' }]],
  ['an add under a missing parent', [{ op: 'add', path: '/spec/nope/x', value: 'v' }]],
  ['an unknown operation', [{ op: 'frobnicate', path: '/data/x' }]],
])('%s answers the generic 422, body for body', async (_what, ops) => {
  const before = JSON.parse((await suite.call('GET', cm)).text).metadata.resourceVersion;
  const r = await suite.call('PATCH', cm, ops, jsonPatch);
  expect(r.code).toBe(422);
  expect(r.text).toBe(rejected);
  expect(JSON.parse((await suite.call('GET', cm)).text).metadata.resourceVersion).toBe(before);
});

test('kubectl patch --type=json prints the 1.32 message for a failed test operation', async () => {
  const r = await suite.kubectl.run(['patch', 'configmap', 'patched', '--type=json', '-p', '[{"op":"test","path":"/data/x","value":"2"}]']);
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('The request is invalid: the server rejected our request due to an error in our request');
});

test('a passing test operation lets the rest of the patch apply', async () => {
  await suite.kubectl.ok(['patch', 'configmap', 'patched', '--type=json', '-p', '[{"op":"test","path":"/data/x","value":"1"},{"op":"remove","path":"/data/x"}]']);
  expect(JSON.parse(await suite.kubectl.ok(['get', 'configmap', 'patched', '-o', 'json'])).data).toBeUndefined();
});
