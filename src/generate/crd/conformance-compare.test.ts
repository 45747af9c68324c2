// The conformance comparison: exact outside the Kubernetes parts; inside them exact but for listed Kubernetes
// changes (reported) and descriptions (present on both sides, counted by how they differ).
import { compareCrd } from './conformance-compare.js';

const crd = (schema: object): object => ({ kind: 'CustomResourceDefinition', spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } });
const withSpec = (own: object, template: object): object =>
  crd({ type: 'object', properties: { spec: { type: 'object', properties: { own, template } } } });
const newer = { addedFields: ['added'], noLongerRequired: ['spec.template:status'] };

describe('compareCrd', () => {
  it('is exact outside the Kubernetes parts, descriptions included', () => {
    const golden = withSpec({ type: 'string', description: 'A\nline' }, { type: 'object' });
    const ours = withSpec({ type: 'string', description: 'A line' }, { type: 'object' });
    expect(compareCrd(golden, ours, ['spec.template'], newer).differences).toEqual([
      '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.own.description: expected "A\\nline", got "A line"',
    ]);
  });

  it('counts descriptions of the Kubernetes parts by how they differ, and fails one present on one side only', () => {
    const golden = withSpec({ type: 'string' }, {
      type: 'object',
      description: 'Same\ntext',
      properties: { a: { type: 'string', description: 'old words' }, b: { type: 'string', description: 'x' }, c: { type: 'string', description: 'gone' } },
    });
    const ours = withSpec({ type: 'string' }, {
      type: 'object',
      description: 'Same text',
      properties: { a: { type: 'string', description: 'new words' }, b: { type: 'string', description: 'x' }, c: { type: 'string' } },
    });
    const report = compareCrd(golden, ours, ['spec.template'], newer);
    expect(report.descriptions).toEqual({
      compared: 3,
      identical: 1,
      sameWords: 1,
      differentWords: ['.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template.properties.a.description'],
    });
    expect(report.differences).toEqual(['.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template.properties.c.description: expected "gone", got undefined']);
  });

  it('sets aside only the listed Kubernetes changes inside the Kubernetes parts', () => {
    const golden = withSpec({ type: 'string' }, {
      type: 'object',
      required: ['name'],
      properties: { added: { type: 'string' }, other: { type: 'string' }, name: { type: 'string' }, status: { type: 'string' } },
    });
    const ours = withSpec({ type: 'string' }, {
      type: 'object',
      required: ['name', 'status'],
      properties: { name: { type: 'integer' }, status: { type: 'string' } },
    });
    const report = compareCrd(golden, ours, ['spec.template'], newer);
    expect(report.addedAfter132).toEqual(['spec.template.added']);
    expect(report.requiredChangedAfter132).toEqual(['spec.template:status']);
    expect(report.differences).toEqual([
      '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template.properties.other: missing',
      '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template.properties.name.type: expected "string", got "integer"',
    ]);
  });

  it('does not set aside a listed field outside the Kubernetes parts', () => {
    const golden = withSpec({ type: 'object', properties: { added: { type: 'string' } } }, { type: 'object' });
    const ours = withSpec({ type: 'object', properties: {} }, { type: 'object' });
    expect(compareCrd(golden, ours, ['spec.template'], newer).differences).toEqual([
      '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.own.properties.added: missing',
    ]);
  });
});
