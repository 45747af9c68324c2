/** The Kubernetes CEL libraries of CRD rules (strings, lists, sets, regex, URLs, quantity, IP/CIDR, format, optionals): one passing and one failing rule each. */
import { fieldErrorText } from '../errors/field-errors.js';
import { validateCrd } from './crd-kind.js';
import { validateCustomResource } from './schema-validation.js';
import { widgetCrd, withSpec } from './testdata/widget-crd.js';

const specSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 64 },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } },
    sizes: { type: 'array', maxItems: 10, items: { type: 'integer' } },
    endpoint: { type: 'string', maxLength: 200 },
    memory: { type: 'string', maxLength: 20 },
    limit: { 'x-kubernetes-int-or-string': true },
    address: { type: 'string', maxLength: 50 },
    network: { type: 'string', maxLength: 50 },
    labels: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 20 } },
    'dashed-name': { type: 'string', maxLength: 10 },
    timeout: { type: 'string', format: 'duration' },
    at: { type: 'string', format: 'date-time' },
  },
};

function crdFor(rule: string, extra: Record<string, unknown> = {}) {
  return widgetCrd(withSpec({ ...specSchema, 'x-kubernetes-validations': [{ rule, ...extra }] }));
}

/** Creates the CRD (failing the test on CRD errors) and validates a Widget with `spec`. */
function verdict(rule: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): string[] {
  const crd = crdFor(rule, extra);
  const crdErrors = validateCrd(crd as never).map(fieldErrorText);
  if (crdErrors.length > 0) throw new Error(`CRD rejected: ${crdErrors.join('; ')}`);
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  return validateCustomResource({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec }, schema).map(fieldErrorText);
}

const crdErrors = (rule: string): string[] => validateCrd(crdFor(rule) as never).map(fieldErrorText);
const failed = (rule: string, message?: string): string[] => [`spec: Invalid value: "object": ${message ?? `failed rule: ${rule}`}`];

test.each([
  ['strings', 'self.name.charAt(0) == "w" && self.name.upperAscii().lowerAscii() == self.name && self.name.replace("-", "_") == "web_1"', { name: 'web-1' }, { name: 'Web-1' }],
  ['strings split/join/trim/indexOf', 'self.name.split("-").join("+") == "web+1" && " x ".trim() == "x" && self.name.indexOf("-") == 3 && self.name.lastIndexOf("b") == 2', { name: 'web-1' }, { name: 'web_1' }],
  ['strings format/quote', '"%s=%d".format([dyn(self.name), dyn(3)]) == "a=3" && strings.quote(self.name) == "\\"a\\""', { name: 'a' }, { name: 'b' }],
  ['lists', 'self.sizes.isSorted() && self.sizes.sum() == 6 && self.sizes.min() == 1 && self.sizes.max() == 3 && self.sizes.indexOf(2) == 1 && self.sizes.lastIndexOf(9) == -1', { sizes: [1, 2, 3] }, { sizes: [3, 2, 1] }],
  ['sets', 'sets.contains(self.tags, ["a"]) && sets.intersects(self.tags, ["b", "z"]) && sets.equivalent(self.tags, ["b", "a", "a"])', { tags: ['a', 'b'] }, { tags: ['a', 'c'] }],
  ['regex', 'self.name.find("[0-9]+") == "42" && self.name.findAll("[a-z]") == ["a", "b"] && self.name.matches("^ab")', { name: 'ab42' }, { name: 'zz' }],
  ['urls', 'isURL(self.endpoint) && url(self.endpoint).getScheme() == "https" && url(self.endpoint).getHost() == "example.com:8443" && url(self.endpoint).getHostname() == "example.com" && url(self.endpoint).getPort() == "8443" && url(self.endpoint).getEscapedPath() == "/a/b" && url(self.endpoint).getQuery()["x"] == ["1", "2"]', { endpoint: 'https://example.com:8443/a/b?x=1&x=2' }, { endpoint: 'example.com' }],
  ['quantity', 'isQuantity(self.memory) && quantity(self.memory).isGreaterThan(quantity("1Gi")) && quantity(self.memory).compareTo(quantity("2048Mi")) == 0 && quantity(self.memory).add(quantity("512Mi")).isLessThan(quantity("3Gi")) && quantity(self.memory).sub(1).isInteger() && quantity(self.memory).asInteger() == 2147483648 && quantity("1500m").asApproximateFloat() == 1.5 && quantity("-1").sign() == -1 && !quantity("1500m").isInteger()', { memory: '2Gi' }, { memory: '1Gi' }],
  ['ip', 'isIP(self.address) && ip(self.address).family() == 6 && !ip(self.address).isLoopback() && ip("127.0.0.1").isLoopback() && ip("fe80::1").isLinkLocalUnicast() && ip(self.address).isGlobalUnicast() && string(ip(self.address)) == "2001:db8::1" && !isIP("1.02.3.4") && !isIP("::ffff:1.2.3.4") && ip.isCanonical("2001:db8::1") && !ip.isCanonical("2001:DB8::1")', { address: '2001:db8:0:0:0::1' }, { address: '::1' }],
  ['cidr', 'isCIDR(self.network) && cidr(self.network).containsIP("10.1.2.3") && cidr(self.network).containsCIDR("10.1.0.0/24") && cidr(self.network).prefixLength() == 16 && string(cidr("10.1.2.3/16").masked()) == "10.1.0.0/16" && cidr(self.network).ip() == ip("10.1.0.0")', { network: '10.1.0.0/16' }, { network: '10.2.0.0/16' }],
  ['format', '!format.dns1123Label().validate(self.name).hasValue() && format.named("dns1035Label").value().validate("1abc").hasValue() && !format.named("nope").hasValue()', { name: 'web-1' }, { name: 'Web_1' }],
  ['optionals', 'self.?name.orValue("none") == "none" && self.labels[?"a"].orValue("x") == "b" && optional.of(1).hasValue() && !optional.ofNonZeroValue(0).hasValue()', { labels: { a: 'b' } }, { name: 'x', labels: { a: 'b' } }],
  ['int-or-string', 'type(self.limit) == int ? self.limit < 10 : self.limit.endsWith("%")', { limit: 5 }, { limit: '50' }],
  ['timestamps and durations', 'self.timeout > duration("1m") && self.at < timestamp("2030-01-01T00:00:00Z") && self.at.getFullYear() == 2026 && string(self.timeout) == "90s" && string(self.at) == "2026-11-22T10:00:00Z"', { timeout: '90s', at: '2026-11-22T10:00:00Z' }, { timeout: '30s', at: '2026-11-22T10:00:00Z' }],
  ['escaped property names', 'self.dashed__dash__name == "x"', { 'dashed-name': 'x' }, { 'dashed-name': 'y' }],
])('%s: a passing rule and a failing one', (_library, rule, passing, failing) => {
  expect(verdict(rule, passing)).toEqual([]);
  expect(verdict(rule, failing)).toEqual(failed(rule));
});

test('library runtime errors name the rule as the server does', () => {
  expect(verdict('quantity(self.memory).isInteger()', { memory: 'lots' })).toEqual([
    `spec: Invalid value: "object": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' evaluating rule: quantity(self.memory).isInteger()`,
  ]);
  expect(verdict('url(self.endpoint).getScheme() == "x"', { endpoint: 'nope' })).toEqual([
    'spec: Invalid value: "object": URL parse error during conversion from string: parse "nope": invalid URI for request evaluating rule: url(self.endpoint).getScheme() == "x"',
  ]);
  expect(verdict('self.name == "a"', {})).toEqual(['spec: Invalid value: "object": no such key: name evaluating rule: self.name == "a"']);
  expect(verdict('ip(self.address).family() == 4', { address: '::ffff:1.2.3.4' }, { message: 'must be IPv4' })).toEqual([
    'spec: Invalid value: "object": IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed evaluating rule: must be IPv4',
  ]);
});

test('what a 1.32 CRD environment does not declare is rejected at CRD creation with cel-go wording', () => {
  const p = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
  // the value is the whole rule, as Go's %#v of apiextensions.ValidationRule
  expect(crdErrors('self.nope == 1')).toEqual([
    `${p}: Invalid value: apiextensions.ValidationRule{Rule:"self.nope == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^`,
  ]);
  // the examples of the Kubernetes documentation
  expect(crdErrors('self.name == true')[0]).toContain("compilation failed: ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(string, bool)'");
  expect(crdErrors('self.nonExistingField > 0')[0]).toContain("compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'");
  expect(crdErrors('other.name == "a"')[0]).toContain("compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' (in container '')");
  expect(crdErrors('self.sizes.slice(0, 1) == [1]')[0]).toContain("undeclared reference to 'slice' (in container '')");
  expect(crdErrors('cel.bind(n, self.name, n == "a")')[0]).toContain("undeclared reference to 'cel' (in container '')");
  expect(crdErrors('self.name.reverse() == "a"')[0]).toContain("undeclared reference to 'reverse'");
  expect(crdErrors('self.name + 1 == "a"')[0]).toContain("found no matching overload for '_+_' applied to '(string, int)'");
  expect(crdErrors('self.name')[0]).toMatch(/Invalid value: apiextensions\.ValidationRule\{Rule:"self\.name", .*\}: cel expression must evaluate to a bool$/);
  expect(crdErrors('self.name.startsWith(1)')[0]).toContain("found no matching overload for 'startsWith' applied to 'string.(int)'");
});

test('mixed-type list literals need dyn(), as with cel-go homogeneous aggregate literals', () => {
  expect(crdErrors('"%s=%d".format([self.name, 3]) == "a=3"')[0]).toContain("ERROR: <input>:1:28: expected type 'string' but found 'int'");
});

test('root rules see apiVersion, kind and metadata.name / generateName only', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object' } }, 'x-kubernetes-validations': [{ rule: 'self.metadata.name.startsWith("w-") && self.kind == "Widget"', message: 'bad name' }] };
  const crd = { ...crdFor('true'), spec: { ...crdFor('true').spec, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] } };
  expect(validateCrd(crd as never)).toEqual([]);
  const cr = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, labels: { a: 'b' } }, spec: {} });
  expect(validateCustomResource(cr('w-1'), schema)).toEqual([]);
  expect(validateCustomResource(cr('x-1'), schema).map(fieldErrorText)).toEqual(['<nil>: Invalid value: "object": bad name']);
  const labels = { ...schema, 'x-kubernetes-validations': [{ rule: 'self.metadata.labels.size() > 0' }] };
  expect(validateCrd({ ...crd, spec: { ...crd.spec, versions: [{ ...crd.spec.versions[0]!, schema: { openAPIV3Schema: labels } }] } } as never).map(fieldErrorText)[0]).toContain("undefined field 'labels'");
});

test('optional list/map literal entries, which cel-js cannot parse, reject the CRD saying so', () => {
  expect(crdErrors('[?self.?name].size() == 1')[0]).toContain('optional entries in list and map literals ([?x], {?k: v}) are valid CEL with optional types, but the kubeforge local cluster cannot evaluate them');
  expect(crdErrors('self.labels[?"a"].hasValue() || self.tags[?0].hasValue()')).toEqual([]);
});

test('constant regexes, durations and timestamps are validated at CRD creation (cel-go literal validators)', () => {
  expect(crdErrors('self.name.matches("[a-z")')[0]).toContain("compilation failed: ERROR: <input>:1:19: invalid matches argument\n | self.name.matches(\"[a-z\")\n | ..................^");
  expect(crdErrors('self.name.matches("(?=x)")')[0]).toContain('invalid matches argument');
  expect(crdErrors('duration("5 minutes") > duration("1m")')[0]).toContain('ERROR: <input>:1:10: invalid duration argument');
  expect(crdErrors('timestamp("yesterday") < timestamp("2026-01-01T00:00:00Z")')[0]).toContain('ERROR: <input>:1:11: invalid timestamp argument');
  expect(crdErrors('self.name.matches("^web-[0-9]+$") && duration("1h30m") > duration("90m") == false')).toEqual([]);
});

test('what cel-js cannot evaluate is refused at CRD creation, saying so', () => {
  expect(crdErrors('self.name.matches("(?i)^web")')[0]).toContain('ERROR: <input>:1:19: this RE2 pattern is valid on a real API server, but the kubeforge local cluster cannot evaluate it with matches()');
  expect(crdErrors('self.name.find("(?i)^web") != ""')).toEqual([]);
  expect(crdErrors('has(self.tags[0].x)')[0]).toContain('has() of a field of an indexed value (has(a[0].b)) is valid CEL, but the kubeforge local cluster cannot evaluate it');
});
