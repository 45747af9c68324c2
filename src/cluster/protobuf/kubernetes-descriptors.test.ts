/**
 * The generated message tables are what kubectl 1.32 embeds (the extraction script, rerun in --check mode
 * against the binary, finds no difference), and carry the Go facts the decoder relies on.
 */
import { execFileSync } from 'node:child_process';
import { FIELD_INLINE, FIELD_OMITEMPTY, FIELD_POINTER, FIELD_REPEATED, kubernetesMessageSources, listMessages, messageFields } from './kubernetes-descriptors.generated.js';

const field = (message: string, jsonName: string) => messageFields(message)!.find((f) => f[1] === jsonName)!;

test('the checked-in tables equal what the kubectl 1.32 binary gives', () => {
  const script = new URL('../../../scripts/extract-protobuf-descriptors.mjs', import.meta.url).pathname;
  expect(execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' })).toBe('up to date\n');
});

test('Go facts in the tables: pointers, omitempty, inline structs, JSON names, maps, named slices', () => {
  expect(field('k8s.io.api.apps.v1.DeploymentSpec', 'replicas')[3]).toBe(FIELD_POINTER | FIELD_OMITEMPTY);
  expect(field('k8s.io.api.scheduling.v1.PriorityClass', 'value')[3]).toBe(0);
  expect(field('k8s.io.api.core.v1.PodSpec', 'containers')[3]).toBe(FIELD_REPEATED);
  expect(field('k8s.io.api.core.v1.Volume', 'volumeSource')[3] & FIELD_INLINE).toBe(FIELD_INLINE);
  expect(field('k8s.io.api.authentication.v1.BoundObjectReference', 'uid')[0]).toBe(4);
  expect(field('k8s.io.api.core.v1.ConfigMap', 'binaryData').slice(2, 5)).toEqual(['map', FIELD_OMITEMPTY, 'bytes']);
  expect(listMessages).toContain('k8s.io.api.authorization.v1.ExtraValue');
  expect(Object.keys(kubernetesMessageSources).length).toBeGreaterThan(1000);
});
