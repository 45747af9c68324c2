import { collectMarkers } from './collect.js';
import type { MarkerTarget, MarkerValue } from './types.js';

/**
 * Marker lines as written in controller-tools' CRD test data and the kubebuilder CronJob tutorial,
 * with the values controller-gen reads from them.
 */
const CASES: [MarkerTarget, string, string, Record<string, MarkerValue>][] = [
  ['field', '+kubebuilder:validation:Pattern=`^$|^((https):\\/\\/?)[^\\s()<>]+(?:\\([\\w\\d]+\\)|([^[:punct:]\\s]|\\/?))$`', 'kubebuilder:validation:Pattern', { '': '^$|^((https):\\/\\/?)[^\\s()<>]+(?:\\([\\w\\d]+\\)|([^[:punct:]\\s]|\\/?))$' }],
  ['field', '+kubebuilder:validation:Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"', 'kubebuilder:validation:Pattern', { '': '^((100|[0-9]{1,2})%|[0-9]+)$' }],
  ['field', '+kubebuilder:default={{nested: {foo: "baz", bar: true}},{nested: {bar: false}}}', 'kubebuilder:default', { '': [{ nested: { foo: 'baz', bar: true } }, { nested: { bar: false } }] }],
  ['field', '+kubebuilder:default:=Allow', 'kubebuilder:default', { '': 'Allow' }],
  ['field', '+kubebuilder:validation:Enum=1;2;"foo";"bar"', 'kubebuilder:validation:Enum', { '': [1, 2, 'foo', 'bar'] }],
  ['field', '+kubebuilder:validation:Minimum=-0.5', 'kubebuilder:validation:Minimum', { '': -0.5 }],
  ['field', '+kubebuilder:title="124"', 'kubebuilder:title', { '': '124' }],
  ['field', '+kubebuilder:validation:items:Enum=a;b', 'kubebuilder:validation:items:Enum', { '': ['a', 'b'] }],
  ['field', '+default=["a","b"]', 'default', { '': ['a', 'b'] }],
  ['field', '+kubebuilder:validation:XValidation:rule="self.size() % 2 == 0",message="must have even length"', 'kubebuilder:validation:XValidation', { rule: 'self.size() % 2 == 0', message: 'must have even length' }],
  [
    'type',
    '+kubebuilder:validation:XValidation:rule="!has(oldSelf.x) || has(self.x)",fieldPath=".x",reason=FieldValueForbidden,optionalOldSelf=true',
    'kubebuilder:validation:XValidation',
    { rule: '!has(oldSelf.x) || has(self.x)', fieldPath: '.x', reason: 'FieldValueForbidden', optionalOldSelf: true },
  ],
  [
    'type',
    '+kubebuilder:metadata:annotations="api-approved.kubernetes.io=https://github.com/kubernetes-sigs/controller-tools";"cert-manager.io/inject-ca-from-secret=cert-manager/cert-manager-webhook-ca"',
    'kubebuilder:metadata',
    { annotations: ['api-approved.kubernetes.io=https://github.com/kubernetes-sigs/controller-tools', 'cert-manager.io/inject-ca-from-secret=cert-manager/cert-manager-webhook-ca'] },
  ],
  ['type', '+kubebuilder:selectablefield:JSONPath=`.spec.selectableFieldString`', 'kubebuilder:selectablefield', { JSONPath: '.spec.selectableFieldString' }],
  ['type', '+kubebuilder:printcolumn:name="Rank",type=integer,JSONPath=`.spec.rank`,priority=10,description="rank"', 'kubebuilder:printcolumn', { name: 'Rank', type: 'integer', JSONPath: '.spec.rank', priority: 10, description: 'rank' }],
  ['type', '+kubebuilder:resource:path=toyz,singular=toyy,shortName=ty;tz,categories=all,scope=Cluster', 'kubebuilder:resource', { path: 'toyz', singular: 'toyy', shortName: ['ty', 'tz'], categories: ['all'], scope: 'Cluster' }],
  ['type', '+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector', 'kubebuilder:subresource:scale', { specpath: '.spec.replicas', statuspath: '.status.replicas', selectorpath: '.status.selector' }],
  ['type', '+kubebuilder:deprecatedversion:warning="jobs v1beta2 is deprecated"', 'kubebuilder:deprecatedversion', { warning: 'jobs v1beta2 is deprecated' }],
  ['type', '+kubebuilder:deprecatedversion', 'kubebuilder:deprecatedversion', {}],
  ['type', '+kubebuilder:validation:AtMostOneOf=foo;bar', 'kubebuilder:validation:AtMostOneOf', { '': ['foo', 'bar'] }],
  ['field', '+kubebuilder:externalDocs:url="https://example.com/docs",description="more"', 'kubebuilder:externalDocs', { url: 'https://example.com/docs', description: 'more' }],
  ['type', '+kubebuilder:validation:Type=object', 'kubebuilder:validation:Type', { '': 'object' }],
  ['package', '+kubebuilder:object:generate=true', 'kubebuilder:object:generate', { '': true }],
  ['package', '+groupName=batch.tutorial.kubebuilder.io', 'groupName', { '': 'batch.tutorial.kubebuilder.io' }],
  ['type', '+k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object', 'k8s:deepcopy-gen:interfaces', { '': 'k8s.io/apimachinery/pkg/runtime.Object' }],
  ['package', '+k8s:deepcopy-gen=package,register', 'k8s:deepcopy-gen', { '': 'package,register' }],
];

describe('real-world marker lines', () => {
  it.each(CASES)('on a %s: %s', (target, text, name, args) => {
    const { markers, diagnostics } = collectMarkers([{ text, position: { file: 'f.ts', line: 1, column: 1 } }], target);
    expect(diagnostics).toEqual([]);
    expect(markers).toHaveLength(1);
    expect(markers[0].name).toBe(name);
    expect(markers[0].args).toEqual(args);
  });
});
