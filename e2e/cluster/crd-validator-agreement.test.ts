// kubeforge/testing's crdValidator agrees with the local cluster: the same CRD file is applied with real kubectl,
// the same objects are created and replaced through kubectl, and kubectl prints exactly the refusal the validator
// returns (every field error, in the server's words) — or both accept, with the same stored object.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { crdValidator, type CrdValidationResult } from '../../src/testing/index.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const rule = (rule: string, extra: Record<string, unknown> = {}) => ({ rule, ...extra });

/** A schema with the parts validation has: defaults, enum, bounds, required, map lists, CEL of every shape. */
function crdWith(nameMaxLength: number) {
  const spec = {
    type: 'object',
    required: ['size'],
    'x-kubernetes-validations': [
      rule("self.mode != 'fast' || self.size <= 10", { message: 'fast widgets are small', fieldPath: '.size', reason: 'FieldValueForbidden' }),
      rule('!has(oldSelf.owner) || has(self.owner)', { message: 'owner cannot be removed' }),
    ],
    properties: {
      name: { type: 'string', maxLength: nameMaxLength },
      size: { type: 'integer', minimum: 1, maximum: 100 },
      mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
      owner: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [rule('self == oldSelf', { message: 'owner is immutable' })] },
      colour: {
        type: 'string',
        maxLength: 20,
        'x-kubernetes-validations': [rule("self.startsWith('c-')", { messageExpression: "'colour ' + self + ' must start with c-'" })],
      },
      ports: {
        type: 'array',
        maxItems: 8,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', maxLength: 10 },
            port: { type: 'integer', 'x-kubernetes-validations': [rule('self >= oldSelf', { message: 'port may only grow' })] },
          },
        },
      },
    },
  };
  const status = { type: 'object', properties: { phase: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [rule("self != 'Broken'")] } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.agree.example.com' },
    spec: {
      group: 'agree.example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec, status } } } }],
    },
  };
}

const folder = mkdtempSync(join(tmpdir(), 'kubeforge-crd-validator-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Writes the CRD as a file (as `kubeforge manifests` would) and returns its path. */
function crdFile(name: string, crd: object): string {
  const path = join(folder, name);
  writeFileSync(path, stringify(crd));
  return path;
}

const gadget = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'agree.example.com/v1',
  kind: 'Gadget',
  metadata: { name },
  spec,
  ...extra,
});

/** What kubectl prints for a refused write, from the validator's answer. */
function kubectlRefusal(result: CrdValidationResult, name: string): string {
  if (result.code !== 422) return result.message;
  const causes = result.errors.map((e) => e.text);
  return causes.length === 1 ? `The Gadget "${name}" is invalid: ${causes[0]}` : `The Gadget "${name}" is invalid: \n${causes.map((c) => `* ${c}`).join('\n')}`;
}

/** Both answers to one write: the validator's, and kubectl's exit status and output. */
async function expectAgreement(result: CrdValidationResult, args: string[], object: object, name: string): Promise<void> {
  const r = await kubectl.run([...args, '-f', '-', '-o', 'json'], JSON.stringify(object));
  if (result.allowed) {
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const stored = JSON.parse(r.stdout);
    expect(stored.spec).toEqual(result.object!.spec);
    expect(stored.status).toEqual(result.object!.status);
    return;
  }
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(kubectlRefusal(result, name));
}

test('creates: the validator refuses and accepts exactly what kubectl create gets refused and accepted', async () => {
  const path = crdFile('gadgets.yaml', crdWith(10));
  await kubectl.ok(['apply', '-f', path]);
  await suite.cluster.settle();
  const validator = crdValidator(path);
  const cases = [
    gadget('good', { name: 'g', size: 5, colour: 'c-red' }),
    // CEL after defaulting: mode defaults to fast, and a fast gadget must be small (reason and fieldPath)
    gadget('too-big', { size: 50 }),
    // messageExpression, and an item rule next to it
    gadget('colour', { size: 5, mode: 'slow', colour: 'red', ports: [{ name: 'a', port: 1 }] }),
    // schema errors that block CEL: enum, bounds, required, too long
    gadget('schema', { name: 'much-too-long-name', mode: 'medium', colour: 'blue' }),
    gadget('range', { size: 0, colour: 'c-x' }),
    // duplicate map-list keys
    gadget('dup', { size: 5, ports: [{ name: 'a' }, { name: 'a' }] }),
    // metadata
    gadget('Bad_Name', { size: 5 }),
  ];
  let refused = 0;
  for (const object of cases) {
    const result = validator.validate(object);
    if (!result.allowed) refused++;
    await expectAgreement(result, ['create'], object, object.metadata.name);
  }
  expect(refused).toBe(cases.length - 1);
  // an unknown field: kubectl validates strictly, the server answers 400
  const unknown = gadget('unknown', { size: 5, bogus: true });
  const strict = validator.validate(unknown);
  expect(strict).toMatchObject({ allowed: false, code: 400, reason: 'BadRequest' });
  expect(strict.message).toContain('strict decoding error: unknown field "spec.bogus"');
  await expectAgreement(strict, ['create'], unknown, 'unknown');
});

test('updates: transition rules, map-list correlation and the status subresource, as kubectl replace gets them', async () => {
  const path = crdFile('gadgets.yaml', crdWith(10));
  const validator = crdValidator(path);
  const old = gadget('upd', { name: 'u', size: 5, owner: 'ann', colour: 'c-a', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 90 }] });
  await kubectl.ok(['create', '-f', '-'], JSON.stringify(old));
  const updates = [
    // owner immutable, owner cannot be removed
    gadget('upd', { name: 'u', size: 5, owner: 'bob', colour: 'c-a' }),
    gadget('upd', { name: 'u', size: 5, colour: 'c-a' }),
    // port b shrinks (correlated by key even when reordered); a new port c has no old value
    gadget('upd', { name: 'u', size: 5, owner: 'ann', colour: 'c-a', ports: [{ name: 'b', port: 10 }, { name: 'a', port: 81 }, { name: 'c', port: 1 }] }),
    // status changes through the main resource are ignored
    gadget('upd', { name: 'u', size: 6, owner: 'ann', colour: 'c-a', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 90 }] }, { status: { phase: 'Broken' } }),
  ];
  let refused = 0;
  for (const next of updates) {
    const result = validator.validateUpdate(next, old);
    if (!result.allowed) refused++;
    await expectAgreement(result, ['replace'], next, 'upd');
    // a write that went through changed the stored object: put the old one back for the next case
    if (result.allowed) await kubectl.ok(['replace', '-f', '-'], JSON.stringify(old));
  }
  expect(refused).toBe(3);
  const status = gadget('upd', old.spec, { status: { phase: 'Broken' } });
  const result = validator.validateUpdate(status, old, { subresource: 'status' });
  expect(result.errors.map((e) => e.text)).toEqual(["status.phase: Invalid value: \"string\": failed rule: self != 'Broken'"]);
  await expectAgreement(result, ['replace', '--subresource', 'status'], status, 'upd');
});

test('ratcheting: a value stored before a stricter schema may stay; a change to it must pass', async () => {
  const loose = crdFile('loose.yaml', crdWith(40));
  await kubectl.ok(['apply', '-f', loose]);
  const old = gadget('ratchet', { name: 'a-name-longer-than-ten', size: 5 });
  await kubectl.ok(['create', '-f', '-'], JSON.stringify(old));
  const strict = crdFile('strict.yaml', crdWith(10));
  await kubectl.ok(['apply', '-f', strict]);
  await suite.cluster.settle();
  const validator = crdValidator(strict);
  const notChecked = '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';
  expect(validator.validate(old).errors.map((e) => e.text)).toEqual(['spec.name: Too long: may not be more than 10 bytes', notChecked]);
  const unchanged = gadget('ratchet', { name: 'a-name-longer-than-ten', size: 6 });
  const kept = validator.validateUpdate(unchanged, old);
  expect(kept.allowed).toBe(true);
  await expectAgreement(kept, ['replace'], unchanged, 'ratchet');
  const changed = gadget('ratchet', { name: 'another-long-name-here', size: 6 });
  const refused = validator.validateUpdate(changed, unchanged);
  expect(refused.errors.map((e) => e.text)).toEqual(['spec.name: Too long: may not be more than 10 bytes', notChecked]);
  await expectAgreement(refused, ['replace'], changed, 'ratchet');
});
