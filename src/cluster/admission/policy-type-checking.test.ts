/** Type checking of ValidatingAdmissionPolicy expressions against the kinds a policy matches. */
import { ResourceCatalog } from '../registry/resource-catalog.js';
import { configMaps, pods } from '../registry/builtin/core-kinds.js';
import { typeCheckPolicy } from './policy-type-checking.js';

const catalog = new ResourceCatalog([pods, configMaps]);
const policy = (resources: string[], validations: unknown[]) => ({
  metadata: { name: 'p' },
  spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources }] }, validations },
});

test('a field one matched kind lacks is reported for that kind, core group written "/v1"', () => {
  const warnings = typeCheckPolicy(policy(['pods', 'configmaps'], [{ expression: 'object.data.size() > 0', messageExpression: "object.metadata.name + ' empty'" }]), catalog);
  expect(warnings).toEqual([{ fieldRef: 'spec.validations[0].expression', warning: "/v1, Kind=Pod: ERROR: <input>:1:7: undefined field 'data'\n | object.data.size() > 0\n | ......^" }]);
});

test('wildcards and unknown resources are not type checked', () => {
  expect(typeCheckPolicy(policy(['*'], [{ expression: 'object.nope' }]), catalog)).toEqual([]);
  expect(typeCheckPolicy(policy(['widgets'], [{ expression: 'object.nope' }]), catalog)).toEqual([]);
});

test('typed fields: a string compared with an int is reported', () => {
  const [warning] = typeCheckPolicy(policy(['pods'], [{ expression: 'object.spec.nodeName > 3' }]), catalog);
  expect(warning?.fieldRef).toBe('spec.validations[0].expression');
  expect(warning?.warning).toContain("/v1, Kind=Pod: ERROR: <input>:1:22: found no matching overload for '_>_' applied to '(string, int)'");
});
