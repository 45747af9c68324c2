/** randomObjects: deterministic per seed, valid for the CRD, varied, and bounded by the schema. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KindRegistry } from '../runtime/client/kinds.js';
import type { KubeObject } from '../runtime/client/object.js';
import { crdValidator } from './crd-validator.js';
import { randomObjects } from './random-objects.js';

const kinds = new KindRegistry();
const Gadget = kinds.register<KubeObject & { spec: Record<string, unknown> }>({ group: 'example.com', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true });
const crdDir = mkdtempSync(path.join(tmpdir(), 'random-objects-'));
const crdFile = path.join(crdDir, 'example.com_gadgets.yaml');
writeFileSync(
  crdFile,
  `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: { kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: { type: string }
          kind: { type: string }
          metadata: { type: object }
          spec:
            type: object
            required: [size, mode]
            properties:
              size: { type: integer, minimum: 1, maximum: 5 }
              mode: { type: string, enum: [Fast, Slow] }
              name: { type: string, minLength: 2, maxLength: 4 }
              when: { type: string, format: date-time }
              tags: { type: array, maxItems: 3, items: { type: string }, x-kubernetes-list-type: set }
              ports:
                type: array
                items: { type: object, required: [name, port], properties: { name: { type: string, minLength: 1 }, port: { type: integer, minimum: 1, maximum: 65535 } } }
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
              labels: { type: object, additionalProperties: { type: string } }
              even: { type: integer, x-kubernetes-validations: [{ rule: "self % 2 == 0", message: must be even }] }
              template: { type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true }
          status: { type: object, properties: { ready: { type: boolean } } }
`,
);

describe('randomObjects', () => {
  const objects = randomObjects(Gadget, { crdPaths: [crdDir], count: 60, seed: 7 });

  test('the same seed draws the same objects; another seed others', () => {
    expect(randomObjects(Gadget, { crdPaths: [crdDir], count: 60, seed: 7 })).toEqual(objects);
    expect(randomObjects(Gadget, { crdPaths: [crdDir], count: 60, seed: 8 })).not.toEqual(objects);
  });

  test('every object is valid for the CRD, with its required fields, within bounds', () => {
    expect(objects).toHaveLength(60);
    const validator = crdValidator(crdFile);
    for (const o of objects) {
      expect(validator.validate(o as unknown as Record<string, unknown>)).toMatchObject({ allowed: true });
      expect(o).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { namespace: 'default' } });
      expect(o.spec.size).toBeGreaterThanOrEqual(1);
      expect(o.spec.size).toBeLessThanOrEqual(5);
      expect(['Fast', 'Slow']).toContain(o.spec.mode);
      // an embedded resource carries apiVersion and kind, as the API server requires
      if (o.spec.template !== undefined) expect(o.spec.template).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String) });
      if (typeof o.spec.even === 'number') expect(Math.abs(o.spec.even % 2)).toBe(0);
    }
    expect(new Set(objects.map((o) => o.metadata!.name)).size).toBe(60);
  });

  test('optional fields appear in some objects and not in others', () => {
    for (const field of ['name', 'when', 'tags', 'ports', 'labels', 'even', 'template']) {
      const withField = objects.filter((o) => o.spec[field] !== undefined).length;
      expect([field, withField > 0 && withField < objects.length]).toEqual([field, true]);
    }
  });

  test('a real CRD with a pod template (the CronJob example) gives valid objects', () => {
    const examples = fileURLToPath(new URL('../../examples/cronjob/config/crd/bases', import.meta.url));
    const CronJob = kinds.register<KubeObject>({ group: 'batch.tutorial.kubebuilder.io', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true });
    expect(randomObjects(CronJob, { crdPaths: [examples], count: 20, seed: 3 })).toHaveLength(20);
  });

  test('a CRD it cannot satisfy is an error naming the CRD and the refusal', () => {
    const Missing = kinds.register<KubeObject>({ group: 'example.com', version: 'v9', kind: 'Gadget', plural: 'gadgets', namespaced: true });
    expect(() => randomObjects(Missing, { crdPaths: [crdDir] })).toThrow(`randomObjects: ${crdFile}: CRD gadgets.example.com has no schema for version v9`);
  });
});
