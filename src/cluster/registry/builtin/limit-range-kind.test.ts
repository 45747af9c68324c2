/** The LimitRange and ResourceQuota kinds' defaulting and 1.32 validation messages. */
import { fieldErrorText } from '../../errors/field-errors.js';
import { limitRanges, validateLimitRange } from './limit-range-kind.js';
import { validateResourceQuota } from './resource-quota-kind.js';

const ctx = { now: 0, uid: () => 'u' };
const lr = (limits: unknown[]) => ({ metadata: { name: 'l', namespace: 'd' }, spec: { limits } });
const texts = (errs: Parameters<typeof fieldErrorText>[0][]): string[] => errs.map(fieldErrorText);

test('Container defaults: default from max, defaultRequest from default, then from min', () => {
  const o = lr([{ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' }, default: { memory: '128Mi' } }]);
  limitRanges.strategy.prepareForCreate!(o, ctx);
  expect(o.spec.limits[0]).toEqual({
    type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' }, default: { memory: '128Mi', cpu: '1' }, defaultRequest: { memory: '128Mi', cpu: '1' },
  });
});

test('min ≤ defaultRequest ≤ default ≤ max, ratio ≥ 1, Pod items take no defaults', () => {
  expect(texts(validateLimitRange(lr([{ type: 'Container', min: { cpu: '500m' }, max: { cpu: '2' }, default: { cpu: '3' }, defaultRequest: { cpu: '100m' } }])))).toEqual([
    'spec.limits[0][cpu]: Invalid value: "100m": min value 500m is greater than default request value 100m',
    'spec.limits[0][cpu]: Invalid value: "2": default value 3 is greater than max value 2',
  ]);
  expect(texts(validateLimitRange(lr([{ type: 'Pod', default: { cpu: '1' }, maxLimitRequestRatio: { cpu: '500m' } }])))).toEqual([
    "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
    'spec.limits[0][cpu]: Invalid value: "500m": ratio 500m is less than 1',
  ]);
  expect(texts(validateLimitRange(lr([{ type: 'Container', max: { gpu: '1' } }])))).toEqual(['spec.limits[0].max[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified']);
});

test('ResourceQuota: non-negative, integer object counts, scopes valid for the resources', () => {
  const q = (spec: Record<string, unknown>) => ({ metadata: { name: 'q', namespace: 'd' }, spec });
  expect(texts(validateResourceQuota(q({ hard: { pods: '1500m', 'requests.cpu': '-1' } })))).toEqual([
    'spec.hard[pods]: Invalid value: "1500m": must be an integer',
    'spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0',
  ]);
  expect(texts(validateResourceQuota(q({ hard: { 'requests.cpu': '1' }, scopes: ['BestEffort'] })))[0]).toContain('unsupported scope applied to resource');
  expect(texts(validateResourceQuota(q({ hard: { foo: '1' } })))).toEqual(['spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota']);
});

test('the limit type must be a standard type or fully qualified', () => {
  expect(texts(validateLimitRange(lr([{ type: 'Node', max: { cpu: '1' } }])))).toEqual(['spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified']);
  expect(texts(validateLimitRange(lr([{ type: 'example.com/Gadget', max: { 'example.com/gpu': '1' } }])))).toEqual([]);
});
