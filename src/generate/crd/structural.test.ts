// The structural-schema check (embedded-apiserver.md §5.1).
import { checkStructuralSchema } from './structural.js';

describe('checkStructuralSchema', () => {
  it('accepts a typical kind schema, including int-or-string anyOf and preserve-unknown-fields', () => {
    expect(
      checkStructuralSchema({
        type: 'object',
        properties: {
          metadata: { type: 'object' },
          spec: {
            type: 'object',
            properties: {
              port: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
              raw: { 'x-kubernetes-preserve-unknown-fields': true },
              name: { allOf: [{ minLength: 1 }, { minLength: 2 }], type: 'string' },
            },
          },
        },
      }),
    ).toEqual([]);
  });

  it.each([
    [{ type: 'string' }, 'openAPIV3Schema.type', 'must be object at the root'],
    [{ type: 'object', properties: { a: {} } }, 'openAPIV3Schema.properties.a.type', 'Required value: must not be empty for specified object fields'],
    [{ type: 'object', properties: { a: { type: 'array' } } }, 'openAPIV3Schema.properties.a.items', 'Required value: must be specified'],
    [{ type: 'object', properties: { a: { type: 'date' } } }, 'openAPIV3Schema.properties.a.type', 'Unsupported value: "date"'],
    [{ type: 'object', properties: { a: { type: 'string', allOf: [{ type: 'string' }] } } }, 'openAPIV3Schema.properties.a.allOf[0].type', 'must be empty to be structural'],
    [{ type: 'object', properties: { a: { type: 'object', properties: {}, additionalProperties: { type: 'string' } } } }, 'openAPIV3Schema.properties.a.additionalProperties', 'mutual exclusive'],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] } } }, 'openAPIV3Schema.properties.a.items.properties.k', 'must be required or have a default'],
    [{ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }, 'openAPIV3Schema.properties.metadata', 'must not specify anything other than name and generateName'],
  ])('rejects %j', (schema, path, message) => {
    const problems = checkStructuralSchema(schema as never);
    expect(problems).toEqual([expect.objectContaining({ path, message: expect.stringContaining(message) })]);
  });
});
