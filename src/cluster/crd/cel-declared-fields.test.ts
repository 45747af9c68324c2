/**
 * `self` declares only the fields a node's own rules name (rule-context.ts): rules reading deep fields, whole-object
 * equality over undeclared nested objects and unknown-field errors behave as with every field declared.
 */
import { fieldErrorText } from '../errors/field-errors.js';
import { validateCrd } from './crd-kind.js';
import { validateCustomResource } from './schema-validation.js';
import { widget, widgetCrd, withSpec } from './testdata/widget-crd.js';

const container = { type: 'object', properties: { name: { type: 'string', maxLength: 20 }, ports: { type: 'array', maxItems: 4, items: { type: 'object', properties: { port: { type: 'integer' } } } } } };
const template = {
  type: 'object',
  properties: {
    labels: { type: 'object', maxProperties: 8, additionalProperties: { type: 'string', maxLength: 20 } },
    spec: { type: 'object', properties: { containers: { type: 'array', maxItems: 4, items: container }, nodeName: { type: 'string', maxLength: 20 } } },
  },
};

function crdWith(rules: Array<Record<string, unknown>>) {
  const spec = { type: 'object', properties: { template, paused: { type: 'boolean' } }, 'x-kubernetes-validations': rules };
  return widgetCrd(withSpec(spec));
}
const texts = (errs: Parameters<typeof fieldErrorText>[0][]): string[] => errs.map(fieldErrorText);
const podWith = (name: string, port: number) => ({ template: { labels: { a: 'b' }, spec: { containers: [{ name, ports: [{ port }] }] } } });

test('a rule reading deep fields compiles and runs; whole-object equality compares undeclared nested objects', () => {
  const crd = crdWith([
    { rule: "self.template.spec.containers.all(c, c.name != '' && c.ports.all(p, p.port > 0))", message: 'containers need names and ports' },
    { rule: 'self == oldSelf || !has(oldSelf.paused) || !oldSelf.paused', message: 'a paused widget cannot change' },
  ]);
  expect(validateCrd(crd as never)).toEqual([]);
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  expect(validateCustomResource(widget(podWith('a', 80)), schema)).toEqual([]);
  expect(texts(validateCustomResource(widget(podWith('', 80)), schema))).toEqual(['spec: Invalid value: "object": containers need names and ports']);
  const paused = { ...podWith('a', 80), paused: true };
  expect(validateCustomResource(widget(paused), schema, widget(paused))).toEqual([]);
  // only a port deep inside the template differs: equality must see it
  expect(texts(validateCustomResource(widget({ ...podWith('a', 81), paused: true }), schema, widget(paused)))).toEqual(['spec: Invalid value: "object": a paused widget cannot change']);
});

test('a field the rule names but the schema lacks is still an undefined field', () => {
  const crd = crdWith([{ rule: 'self.template.spec.nodeNme != ""' }]);
  expect(texts(validateCrd(crd as never)).join('\n')).toContain("compilation failed: ERROR: <input>:1:19: undefined field 'nodeNme'");
});
