/** ValidatingAdmissionPolicy evaluation: parameters by selector, failurePolicy, matchConditions, Audit-only bindings. */
import { ObjectStore } from '../../store/object-store.js';
import { ResourceCatalog } from '../../registry/resource-catalog.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { configMaps } from '../../registry/builtin/core-kinds.js';
import { ApiError } from '../../errors/status-errors.js';
import type { AdmissionRequest } from '../admission-chain.js';
import { ValidatingAdmissionPolicyPlugin } from './validating-admission-policy.js';
import type { AuthorizeFunction } from '../authorizer-library.js';

const policyBucket = 'validatingadmissionpolicies.admissionregistration.k8s.io';
const bindingBucket = 'validatingadmissionpolicybindings.admissionregistration.k8s.io';

function setup(policySpec: Record<string, any>, bindingSpec: Record<string, any>, params: Array<Record<string, any>> = [], authorize?: AuthorizeFunction) {
  const store = new ObjectStore({ initialResourceVersion: 1, historyLimit: 100 });
  store.create('namespaces', { metadata: { name: 'ns', labels: { 'kubernetes.io/metadata.name': 'ns' } } });
  store.create(policyBucket, {
    metadata: { name: 'p' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      ...policySpec,
    },
  });
  store.create(bindingBucket, { metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'], ...bindingSpec } });
  for (const p of params) store.create('configmaps', p as never);
  const plugin = new ValidatingAdmissionPolicyPlugin({ store, catalog: new ResourceCatalog([configMaps]), clock: new VirtualClock(0), ...(authorize ? { authorize } : {}) });
  return plugin;
}

const request = (data: Record<string, string>): AdmissionRequest => ({
  operation: 'CREATE', rt: configMaps, namespace: 'ns', name: 'cm', subresource: undefined,
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data }, oldObject: undefined,
  user: { username: 'alice', groups: ['dev'] }, dryRun: false,
});

const denial = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a denial');
};

test('every parameter a selector finds is checked', () => {
  const plugin = setup(
    { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: "!(params.data.forbidden in object.data)", messageExpression: "'key ' + params.data.forbidden + ' is forbidden'" }] },
    { paramRef: { selector: { matchLabels: { rule: 'yes' } }, namespace: 'ns', parameterNotFoundAction: 'Allow' } },
    [
      { metadata: { name: 'r1', namespace: 'ns', labels: { rule: 'yes' } }, data: { forbidden: 'a' } },
      { metadata: { name: 'r2', namespace: 'ns', labels: { rule: 'yes' } }, data: { forbidden: 'b' } },
      { metadata: { name: 'other', namespace: 'ns' }, data: { forbidden: 'c' } },
    ],
  );
  expect(plugin.validate(request({ c: '1' }))).toEqual([]);
  const err = denial(() => plugin.validate(request({ b: '1' })));
  expect(err.status.message).toBe(`configmaps "cm" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: key b is forbidden`);
  expect(err.code).toBe(422);
});

test('no parameter with Allow admits; a runtime error follows failurePolicy', () => {
  const byName = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'false' }] };
  expect(setup(byName, { paramRef: { name: 'missing', parameterNotFoundAction: 'Allow' } }).validate(request({}))).toEqual([]);
  const failing = { validations: [{ expression: "object.data.missing == 'x'" }] };
  const err = denial(() => setup(failing, {}).validate(request({})));
  expect(err.status.message).toContain("denied request: expression 'object.data.missing == 'x'' resulted in error: no such key: missing");
  expect(setup({ ...failing, failurePolicy: 'Ignore' }, {}).validate(request({}))).toEqual([]);
});

test('matchConditions select requests; an Audit-only binding neither denies nor warns', () => {
  const policy = { matchConditions: [{ name: 'alice-only', expression: "request.userInfo.username == 'alice' && 'dev' in request.userInfo.groups" }], validations: [{ expression: 'false', message: 'no' }] };
  expect(() => setup(policy, {}).validate(request({}))).toThrow("ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no");
  const bob = { ...request({}), user: { username: 'bob', groups: [] } };
  expect(setup(policy, {}).validate(bob)).toEqual([]);
  expect(setup(policy, { validationActions: ['Audit'] }).validate(request({}))).toEqual([]);
});

test('an evaluation error under failurePolicy Fail acts through the binding: a Warn binding warns', () => {
  const plugin = setup({ validations: [{ expression: "object.data.missing == 'x'" }] }, { validationActions: ['Warn'] });
  expect(plugin.validate(request({}))).toEqual([
    "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': expression 'object.data.missing == 'x'' resulted in error: no such key: missing",
  ]);
});

test('a missing parameter with Deny refuses even through a Warn binding', () => {
  const plugin = setup({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }, { validationActions: ['Warn'], paramRef: { name: 'none', namespace: 'ns', parameterNotFoundAction: 'Deny' } });
  expect(() => plugin.validate(request({}))).toThrow('failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction');
});

test('authorizer: checks go to the cluster authorizer for the requesting user (and requestResource is the request)', () => {
  const asked: string[] = [];
  const authorize: AuthorizeFunction = (user, info) => {
    asked.push(`${user.username} ${info.verb} ${info.kind === 'resource' ? `${info.group}/${info.resource}/${info.namespace ?? ''}/${info.name ?? ''}` : info.path}`);
    return info.verb === 'update';
  };
  const plugin = setup(
    {
      validations: [
        { expression: "authorizer.group('').resource('secrets').namespace('ns').check('update').allowed()", message: 'needs secrets' },
        { expression: "authorizer.requestResource.check('delete').allowed()", messageExpression: "'cannot delete: ' + authorizer.requestResource.check('delete').reason()" },
      ],
    },
    {},
    [],
    authorize,
  );
  const err = denial(() => plugin.validate(request({})));
  expect(err.status.message).toBe(`configmaps "cm" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: cannot delete:`);
  expect(asked.slice(0, 2)).toEqual(['alice update /secrets/ns/', 'alice delete /configmaps/ns/cm']);
});

test('an auditAnnotation whose valueExpression fails denies under Fail, even for an Audit binding', () => {
  const policy = { validations: [{ expression: 'true' }], auditAnnotations: [{ key: 'k', valueExpression: 'object.data.missing' }] };
  expect(() => setup(policy, { validationActions: ['Audit'] }).validate(request({}))).toThrow("denied request: expression 'object.data.missing' resulted in error: no such key: missing");
  expect(setup({ ...policy, failurePolicy: 'Ignore' }, { validationActions: ['Audit'] }).validate(request({}))).toEqual([]);
  expect(setup({ validations: [{ expression: 'true' }], auditAnnotations: [{ key: 'k', valueExpression: "'v'" }] }, {}).validate(request({}))).toEqual([]);
});
