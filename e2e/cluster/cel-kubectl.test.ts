/** CRD CEL rules through real kubectl: the Kubernetes libraries, cost rejection, transition rules, messageExpression/reason/fieldPath. */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const string = (maxLength: number, rule: string, message?: string) => ({ type: 'string', maxLength, 'x-kubernetes-validations': [{ rule, ...(message ? { message } : {}) }] });

/** One field per library, each with one rule. */
const libraryFields: Record<string, Record<string, unknown>> = {
  name: string(63, 'self.charAt(0) == "w" && self.upperAscii().lowerAscii() == self && self.split("-").size() == 2'),
  tags: { type: 'array', maxItems: 10, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.isSorted() && self.sum() < 100 && self.max() < 50' }] },
  roles: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 }, 'x-kubernetes-validations': [{ rule: 'sets.contains(["admin", "viewer"], self)', message: 'unknown role' }] },
  version: string(20, 'self.find("[0-9]+") != "" && self.findAll("[0-9]+").size() == 3'),
  endpoint: string(200, 'isURL(self) && url(self).getScheme() == "https"', 'must be an https URL'),
  memory: string(20, 'isQuantity(self) && quantity(self).isLessThan(quantity("4Gi"))', 'must be a quantity below 4Gi'),
  address: string(50, 'isIP(self) && ip(self).family() == 4'),
  network: string(50, 'isCIDR(self) && cidr(self).containsIP("10.0.0.1")'),
  host: string(253, '!format.dns1123Subdomain().validate(self).hasValue()', 'must be a DNS subdomain'),
};

const crd = (name: string, plural: string, kind: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.cel.example.com` },
  spec: {
    group: 'cel.example.com',
    scope: 'Namespaced',
    names: { plural, singular: name, kind },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }],
  },
});

const good = { name: 'web-1', tags: [1, 2, 3], roles: ['admin'], version: 'v1.2.3', endpoint: 'https://example.com/x', memory: '512Mi', address: '10.0.0.7', network: '10.0.0.0/8', host: 'svc.example.com' };
const bad = { name: 'Web', tags: [3, 2, 1], roles: ['root'], version: 'latest', endpoint: 'http://example.com', memory: '8Gi', address: '::1', network: '192.168.0.0/16', host: 'Not_A_Host' };

test('each Kubernetes CEL library: a passing custom resource, and a failing one with every rule named as the server names it', async () => {
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify(crd('service', 'services', 'Service', { type: 'object', properties: libraryFields })));
  await suite.cluster.settle();
  const cr = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'cel.example.com/v1', kind: 'Service', metadata: { name }, spec });
  expect(await kubectl.ok(['apply', '-f', '-'], cr('good', good))).toContain('service.cel.example.com/good created');
  const r = await kubectl.run(['apply', '-f', '-'], cr('bad', bad));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('The Service "bad" is invalid:');
  const rule = (field: string): string => ((libraryFields[field]!['x-kubernetes-validations'] as Array<{ rule: string }>)[0]!).rule;
  for (const line of [
    `spec.name: Invalid value: "string": failed rule: ${rule('name')}`,
    `spec.tags: Invalid value: "array": failed rule: ${rule('tags')}`,
    'spec.roles: Invalid value: "array": unknown role',
    `spec.version: Invalid value: "string": failed rule: ${rule('version')}`,
    'spec.endpoint: Invalid value: "string": must be an https URL',
    'spec.memory: Invalid value: "string": must be a quantity below 4Gi',
    `spec.address: Invalid value: "string": failed rule: ${rule('address')}`,
    `spec.network: Invalid value: "string": failed rule: ${rule('network')}`,
    'spec.host: Invalid value: "string": must be a DNS subdomain',
  ]) {
    expect(r.stderr).toContain(line);
  }
});

test('a CRD whose rule is too expensive, or uses what 1.32 does not declare, is rejected at creation', async () => {
  const costly = crd('costly', 'costlies', 'Costly', {
    type: 'object',
    properties: { names: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(a, self.exists(b, a.contains(b)))' }] } },
  });
  const r = await kubectl.run(['apply', '-f', '-'], JSON.stringify(costly));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('The CustomResourceDefinition "costlies.cel.example.com" is invalid:');
  expect(r.stderr).toContain(
    "properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
  );
  const undeclared = crd('sliced', 'sliceds', 'Sliced', { type: 'object', properties: { n: { type: 'array', maxItems: 3, items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: 'self.n.slice(0, 1) == [1]' }] });
  const u = await kubectl.run(['apply', '-f', '-'], JSON.stringify(undeclared));
  expect(u.code).toBe(1);
  expect(u.stderr).toContain('x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.n.slice(0, 1) == [1]", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:13: undeclared reference to \'slice\' (in container \'\')');
});

test('transition rules compare with oldSelf on update only; messageExpression, reason and fieldPath shape the error', async () => {
  const spec = {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
      replicas: { type: 'integer' },
      max: { type: 'integer' },
    },
    'x-kubernetes-validations': [
      { rule: 'self.replicas <= self.max', messageExpression: '"replicas " + string(self.replicas) + " exceeds the maximum of " + string(self.max)', reason: 'FieldValueForbidden', fieldPath: '.replicas' },
      { rule: '!has(oldSelf.max) || self.max >= oldSelf.max', message: 'max may not shrink', optionalOldSelf: false },
    ],
  };
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify(crd('pool', 'pools', 'Pool', spec)));
  await suite.cluster.settle();
  const pool = (s: Record<string, unknown>) => JSON.stringify({ apiVersion: 'cel.example.com/v1', kind: 'Pool', metadata: { name: 'p' }, spec: s });
  const over = await kubectl.run(['create', '-f', '-'], pool({ name: 'a', replicas: 5, max: 3 }));
  expect(over.stderr).toContain('The Pool "p" is invalid: spec.replicas: Forbidden: replicas 5 exceeds the maximum of 3');
  expect(await kubectl.ok(['create', '-f', '-'], pool({ name: 'a', replicas: 2, max: 3 }))).toContain('pool.cel.example.com/p created');
  const renamed = await kubectl.run(['apply', '-f', '-'], pool({ name: 'b', replicas: 2, max: 2 }));
  expect(renamed.code).toBe(1);
  expect(renamed.stderr).toContain('spec.name: Invalid value: "string": name is immutable');
  expect(renamed.stderr).toContain('spec: Invalid value: "object": max may not shrink');
  expect(await kubectl.ok(['apply', '-f', '-'], pool({ name: 'a', replicas: 3, max: 4 }))).toContain('pool.cel.example.com/p configured');
});

test('rules do not run on an object whose schema errors would void their cost bounds; the server says so', async () => {
  const r = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'cel.example.com/v1', kind: 'Pool', metadata: { name: 'typed' }, spec: { name: 'a', replicas: 'many', max: 3 } }));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"');
  expect(r.stderr).toContain('<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
});
