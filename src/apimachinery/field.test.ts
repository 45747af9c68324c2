/**
 * The one field-error module (issue 18): apimachinery 1.32's field.Error texts, field.Path, and
 * apierrors.NewInvalid's Status — and that the local cluster, the runtime and the examples all use it.
 */
import { readFileSync } from 'node:fs';
import * as field from './field.js';
import * as clusterFieldErrors from '../cluster/errors/field-errors.js';
import { invalidObject } from '../cluster/errors/status-errors.js';
import * as runtime from '../runtime/index.js';

describe('field.Path', () => {
  it('prints children with dots, indexes and keys in brackets', () => {
    const containers = field.newPath('spec', 'template').child('spec', 'containers');
    expect(String(containers.index(0).child('image'))).toBe('spec.template.spec.containers[0].image');
    expect(String(field.newPath('metadata').child('labels').key('app'))).toBe('metadata.labels[app]');
  });
});

describe('field errors', () => {
  it('render each type as field.Error.Error() does', () => {
    const path = field.newPath('spec', 'schedule');
    expect([
      field.invalid(path, '* * *', 'Expected exactly 5 fields'),
      field.invalid('spec.replicas', -1, 'must be greater than or equal to 0'),
      field.invalid('spec.template', { b: [1, 'x'], a: true }, 'bad'),
      field.required('spec.image', ''),
      field.required('spec.image', 'an image is needed'),
      field.forbidden('spec.selector', 'field is immutable'),
      field.notSupported('spec.policy', 'Sometimes', ['Allow', 'Forbid']),
      field.duplicate('spec.ports[1].port', 80),
      field.notFound('spec.configName', 'missing'),
      field.tooLong('metadata.name', 63),
      field.tooMany('spec.items', 5, 3),
      field.typeInvalid('spec.count', 'x', 'must be an integer'),
      field.internalError('spec', new Error('boom')),
    ].map(String)).toEqual([
      'spec.schedule: Invalid value: "* * *": Expected exactly 5 fields',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template: Invalid value: map[string]interface {}{"a":true, "b":[]interface {}{1, "x"}}: bad',
      'spec.image: Required value',
      'spec.image: Required value: an image is needed',
      'spec.selector: Forbidden: field is immutable',
      'spec.policy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid"',
      'spec.ports[1].port: Duplicate value: 80',
      'spec.configName: Not found: "missing"',
      'metadata.name: Too long: may not be more than 63 bytes',
      'spec.items: Too many: 5: must have at most 3 items',
      'spec.count: Invalid value: "x": must be an integer',
      'spec: Internal error: boom',
    ]);
  });

  it('keep an already rendered value as it is', () => {
    expect(String(field.invalid('spec.x', new field.GoSyntaxValue('{"a":1}'), 'd'))).toBe('spec.x: Invalid value: {"a":1}: d');
  });
});

describe('newInvalid (apierrors.NewInvalid)', () => {
  const groupKind = { group: 'batch.tutorial.kubebuilder.io', kind: 'CronJob' };

  it('is a 422 Invalid with one cause per error and the aggregate message', () => {
    const err = field.newInvalid(groupKind, 'nightly', [field.invalid('metadata.name', 'nightly', 'too long'), field.required('spec.schedule')]);
    expect(err).toBeInstanceOf(Error);
    expect({ code: err.code, reason: err.reason, message: err.message }).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'CronJob.batch.tutorial.kubebuilder.io "nightly" is invalid: [metadata.name: Invalid value: "nightly": too long, spec.schedule: Required value]',
    });
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: err.message,
      reason: 'Invalid',
      details: {
        name: 'nightly',
        group: 'batch.tutorial.kubebuilder.io',
        kind: 'CronJob',
        causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: "nightly": too long', field: 'metadata.name' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.schedule' },
        ],
      },
      code: 422,
    });
  });

  it('prints one error bare, drops repeated texts as ToAggregate does, and names a core kind without a group', () => {
    const one = field.invalid('spec.schedule', 'x', 'bad');
    expect(field.newInvalid(groupKind, 'a', [one]).message).toBe('CronJob.batch.tutorial.kubebuilder.io "a" is invalid: spec.schedule: Invalid value: "x": bad');
    expect(field.newInvalid(groupKind, 'a', [one, field.invalid('spec.schedule', 'x', 'bad')]).message).toBe('CronJob.batch.tutorial.kubebuilder.io "a" is invalid: spec.schedule: Invalid value: "x": bad');
    expect(field.newInvalid({ group: '', kind: 'ConfigMap' }, 'cm', []).message).toBe('ConfigMap "cm" is invalid');
  });

  it('says the same as the local cluster for the same errors', () => {
    const errors = [field.invalid('spec.replicas', -1, 'must be greater than or equal to 0'), field.required('spec.selector')];
    const cluster = invalidObject('Deployment', 'apps', 'web', errors).status;
    const status = field.newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', errors).status;
    expect(status).toEqual(cluster);
  });
});

describe('one module', () => {
  it('is what the local cluster, kubeforge/runtime and the examples use', () => {
    expect(clusterFieldErrors.invalid).toBe(field.invalid);
    expect(clusterFieldErrors.fieldErrorText).toBe(field.fieldErrorText);
    expect(runtime.field.invalid).toBe(field.invalid);
    expect(runtime.newInvalid).toBe(field.newInvalid);
    const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    expect(read('examples/cronjob/internal/webhook/v1/cronjob_webhook.ts')).toContain("import { field, newInvalid, type CustomDefaulter, type CustomValidator, type ErrorList, type Manager } from 'kubeforge/runtime';");
    expect(read('examples/jobconfig/internal/validation/field-errors.ts')).toContain("from 'kubeforge/runtime';");
    expect(read('examples/jobconfig/internal/validation/field-errors.ts')).not.toContain('class ');
  });
});
