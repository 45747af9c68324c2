/** CEL cost: the estimator's shape, CRDs rejected for estimated cost, and the runtime per-call limit and per-object budget. */
import { parse } from '@marcbachmann/cel-js';
import { fieldErrorText } from '../errors/field-errors.js';
import { estimateCost, measuredSizes } from './cel/cost-estimate.js';
import { costErrorMessage } from './cel/cost-limits.js';
import { validateCrd } from './crd-kind.js';
import { validateCustomResource } from './schema-validation.js';
import { widgetCrd, withSpec } from './testdata/widget-crd.js';

const astOf = (rule: string): unknown => (parse(rule) as unknown as { ast: unknown }).ast;
const tags = { type: 'object', properties: { tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } } } };

const crdWith = (specSchema: Record<string, unknown>) => widgetCrd(withSpec(specSchema));
const p = 'spec.validation.openAPIV3Schema.properties[spec]';

test('estimates follow cel-go: comprehension bodies times the list bound, string work at 0.1 per character', () => {
  // self.tags (2) + all's result (1) + 10 × (loop condition 2 + && 1 + body: t.size() 2, < 1)
  expect(estimateCost(astOf('self.tags.all(t, t.size() < 10)'), tags)).toEqual({ min: 3, max: 63 });
  // contains: ceil(20 code points × 4 bytes × 0.1) × ceil(3 × 0.1) per item
  expect(estimateCost(astOf('self.tags.exists(t, t.contains("abc"))'), tags).max).toBe(2 + 1 + 10 * (4 + 1 + 8));
  // an unbounded list of unbounded strings is bounded by the 3 MiB request: (3 MiB - 2) / 3 items of 3 MiB - 2 characters
  const unbounded = { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } };
  const n = Math.floor((3 * 1024 * 1024 - 2) / 3);
  expect(estimateCost(astOf('self.items.all(x, x.startsWith("a"))'), unbounded).max).toBe(3 + n * (3 + 1 + 1));
  // the same walk over an actual object uses its sizes
  expect(estimateCost(astOf('self.tags.all(t, t.size() < 10)'), tags, measuredSizes([{ tags: ['a', 'b'] }], tags)).max).toBe(3 + 2 * 6);
});

test('the largest maxItems a 1.3x server accepts for self.all(x, x.contains("gpu")) is accepted here too, and one more is not', () => {
  // published measurements of apiextensions' validator: maxLength of the items → largest accepted maxItems
  const measured: Array<[number, number]> = [
    [16, 909_090],
    [63, 333_333],
    [253, 94_339],
    [1024, 24_154],
  ];
  const verdict = (maxLength: number, maxItems: number): string[] =>
    validateCrd(
      crdWith({ type: 'object', properties: { tags: { type: 'array', maxItems, items: { type: 'string', maxLength }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('gpu'))" }] } } }) as never,
    ).map(fieldErrorText);
  for (const [maxLength, largest] of measured) {
    expect(verdict(maxLength, largest)).toEqual([]);
    expect(verdict(maxLength, largest + 1)[0]).toContain('Forbidden: estimated rule cost exceeds budget by factor of 1.000');
  }
});

test('factor wording matches apiextensions', () => {
  expect(costErrorMessage('estimated rule cost', 10_400_003, 10_000_000)).toBe(
    'estimated rule cost exceeds budget by factor of 1.040000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
  );
  expect(costErrorMessage('estimated rule cost', 25_000_000, 10_000_000)).toContain('by factor of 2.5x');
  expect(costErrorMessage('estimated rule cost', 2e12, 10_000_000)).toContain('by factor of more than 100x');
});

test('a CRD whose rule may cost too much is rejected; adding maxItems/maxLength fixes it', () => {
  const rule = { rule: 'self.all(x, x.matches("^[a-z]+$"))' };
  const unbounded = crdWith({ type: 'object', properties: { names: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [rule] } } });
  // the real server reports the rule and, as its cost alone exceeds the CRD's total, the total too
  expect(validateCrd(unbounded as never).map(fieldErrorText)).toEqual([
    `${p}.properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    `${p}.properties[names].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
    'spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
  ]);
  const bounded = crdWith({ type: 'object', properties: { names: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 63 } }, 'x-kubernetes-validations': [rule] } });
  (bounded.spec.versions[0]!.schema.openAPIV3Schema.properties.spec as any).properties.names['x-kubernetes-validations'] = [rule];
  expect(validateCrd(bounded as never).map(fieldErrorText)).toEqual([]);
});

test('a rule on list items is charged once per possible item', () => {
  const perItem = crdWith({
    type: 'object',
    properties: { names: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.contains("abc")' }] } } },
  });
  expect(validateCrd(perItem as never).map(fieldErrorText)[0]).toBe(
    `${p}.properties[names].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
  );
});

test('the whole schema has a total budget; the most expensive rules are named', () => {
  const rules = Array.from({ length: 11 }, (_, i) => ({ rule: `self.all(x, x.contains("abc${i}"))` }));
  const crd = crdWith({ type: 'object', properties: { names: { type: 'array', maxItems: 23500, items: { type: 'string', maxLength: 1000 }, 'x-kubernetes-validations': rules } } });
  const errs = validateCrd(crd as never).map(fieldErrorText);
  expect(errs.filter((e) => e.endsWith('Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema'))).toHaveLength(4);
  expect(errs.at(-1)).toMatch(
    /^spec\.validation\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.\d{6}x \(try simplifying/,
  );
});

test('runtime: one call over its actual-cost limit stops validation; many calls run out of the per-object budget', () => {
  const pairs = { type: 'array', maxItems: 500, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, a == b || a != b))' }] };
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { pairs } } } };
  expect(validateCrd(crdWith(schema.properties.spec) as never)).toEqual([]);
  const many = Array.from({ length: 500 }, (_, i) => `n${i}`);
  expect(validateCustomResource({ metadata: { name: 'w' }, spec: { pairs: many } }, schema).map(fieldErrorText)).toEqual([
    "spec.pairs: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(a, self.all(b, a == b || a != b))",
  ]);
  expect(validateCustomResource({ metadata: { name: 'w' }, spec: { pairs: many.slice(0, 10) } }, schema)).toEqual([]);

  // each rule may cost ~630k (under the 1M per-call limit, its estimate under 10M), twenty of them exceed the 10M per-object budget
  const rule = { rule: 'self.cells.exists(a, true) || self.cells.all(a, self.cells.exists(b, a == b))' };
  const cellsSpec = { type: 'object', properties: { cells: { type: 'array', maxItems: 300, items: { type: 'string', maxLength: 10 } } }, 'x-kubernetes-validations': Array.from({ length: 20 }, () => rule) };
  expect(validateCrd(crdWith(cellsSpec) as never)).toEqual([]);
  const cells = Array.from({ length: 300 }, (_, i) => `c${i}`);
  expect(validateCustomResource({ metadata: { name: 'w' }, spec: { cells } }, { type: 'object', properties: { spec: cellsSpec } }).map(fieldErrorText)).toEqual([
    'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
  ]);
  expect(validateCustomResource({ metadata: { name: 'w' }, spec: { cells: cells.slice(0, 20) } }, { type: 'object', properties: { spec: cellsSpec } })).toEqual([]);
});
