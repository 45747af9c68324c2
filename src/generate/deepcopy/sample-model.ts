/**
 * A hand-built API model of fixtures/sample (the same types the reader would produce), so the deep-copy
 * generator's tests do not depend on the reader. Used by tests only; kept out of `fixtures/` so it is
 * type-checked.
 */
import type { ApiModel, Field, Marker, NamedType, TypeRef } from '../../model/index.js';

const V1 = 'api/v1/sample_types.ts';
const SHARED = 'shared/shared_types.ts';

const str: TypeRef = { kind: 'primitive', type: 'string' };
const int32: TypeRef = { kind: 'primitive', type: 'integer', format: 'int32', alias: 'int32' };
const int64: TypeRef = { kind: 'primitive', type: 'integer', format: 'int64', alias: 'int64' };
const named = (file: string, name: string): TypeRef => ({ kind: 'named', id: `${file}#${name}`, name });
const known = (key: string): TypeRef => ({ kind: 'known', key });
const array = (items: TypeRef): TypeRef => ({ kind: 'array', items });
const map = (values: TypeRef): TypeRef => ({ kind: 'map', values });
const literal = (value: string): TypeRef => ({ kind: 'literal', value });

function marker(name: string, value: boolean, file: string): Marker {
  return { name, args: { '': value }, text: `+${name}=${value}`, position: { file, line: 1, column: 1 } };
}

function field(name: string, type: TypeRef, optional = true): Field {
  return { name, type, optional, description: '', markers: [], position: { file: V1, line: 1, column: 1 } };
}

function struct(file: string, name: string, fields: Field[], options: { embeds?: TypeRef[]; markers?: Marker[]; exported?: boolean } = {}): NamedType {
  return {
    id: `${file}#${name}`,
    name,
    file,
    position: { file, line: 1, column: 1 },
    description: '',
    markers: options.markers ?? [],
    definition: { kind: 'struct', embeds: options.embeds ?? [], fields },
    exported: options.exported ?? true,
  };
}

function alias(file: string, name: string, target: TypeRef): NamedType {
  return { ...struct(file, name, []), definition: { kind: 'alias', target } };
}

/** The model of fixtures/sample; `packageGenerate` adds `+kubebuilder:object:generate=true` to api/v1. */
export function sampleModel(options: { packageGenerate?: boolean } = {}): ApiModel {
  const types: NamedType[] = [
    alias(V1, 'Mode', { kind: 'enum', values: ['Fast', 'Slow'] }),
    alias(V1, 'Hosts', array(str)),
    alias(V1, 'Rank', int32),
    struct(V1, 'Port', [field('name', str, false), field('port', int32, false)]),
    alias(V1, 'PortList', array(named(V1, 'Port'))),
    struct(V1, 'Base', [field('id', str, false), field('tags', array(str))]),
    struct(V1, 'TreeNode', [field('value', str, false), field('children', array(named(V1, 'TreeNode')))]),
    struct(V1, 'Opaque', [field('payload', map(str), false)], {
      markers: [marker('kubebuilder:object:generate', false, V1)],
    }),
    struct(V1, 'Hidden', [field('secret', str, false)], { exported: false }),
    struct(V1, 'Unused', [field('note', str, false)]),
    struct(
      V1,
      'SampleSpec',
      [
        field('mode', named(V1, 'Mode'), false),
        field('rank', named(V1, 'Rank')),
        field('hosts', named(V1, 'Hosts')),
        field('ports', array(named(V1, 'Port'))),
        field('portList', named(V1, 'PortList')),
        field('portsByName', map(named(V1, 'Port'))),
        field('labels', map(str)),
        field('matrix', array(array(int64))),
        field('groups', array(array(named(V1, 'Port')))),
        field('nestedMaps', map(map(named(V1, 'Port')))),
        field('template', known('core/v1.PodTemplateSpec')),
        field('startedAt', known('meta/v1.Time')),
        field('size', known('api/resource.Quantity')),
        field('target', known('util/intstr.IntOrString')),
        field('raw', known('runtime.RawExtension')),
        field('anything', known('apiextensions/v1.JSON')),
        field('tree', named(V1, 'TreeNode')),
        field('opaque', named(V1, 'Opaque')),
        field('hidden', named(V1, 'Hidden')),
        field('shared', named(SHARED, 'SharedRef')),
        field('odd-name', str),
      ],
      { embeds: [named(V1, 'Base')] },
    ),
    struct(V1, 'SampleStatus', [field('phase', { kind: 'enum', values: ['Pending', 'Done'] }), field('count', int32, false)]),
    struct(
      V1,
      'Sample',
      [
        field('apiVersion', literal('x.example.com/v1'), false),
        field('kind', literal('Sample'), false),
        field('metadata', known('meta/v1.ObjectMeta')),
        field('spec', named(V1, 'SampleSpec'), false),
        field('status', named(V1, 'SampleStatus')),
      ],
      { markers: [marker('kubebuilder:object:root', true, V1)] },
    ),
    struct(
      V1,
      'SampleList',
      [
        field('apiVersion', literal('x.example.com/v1'), false),
        field('kind', literal('SampleList'), false),
        field('metadata', known('meta/v1.ListMeta')),
        field('items', array(named(V1, 'Sample')), false),
      ],
      { markers: [marker('kubebuilder:object:root', true, V1)] },
    ),
    struct(SHARED, 'Port', [field('number', int32, false)]),
    struct(SHARED, 'SharedRef', [field('name', str, false), field('port', named(SHARED, 'Port')), field('labels', map(str))]),
  ];
  const v1Ids = types.filter((t) => t.file === V1).map((t) => t.id);
  return {
    root: '/project',
    groups: [
      {
        name: 'x.example.com',
        versions: [
          {
            group: 'x.example.com',
            version: 'v1',
            dir: 'api/v1',
            files: ['api/v1/groupversion_info.ts', V1],
            markers: options.packageGenerate ? [marker('kubebuilder:object:generate', true, 'api/v1/groupversion_info.ts')] : [],
            kinds: [{ name: 'Sample', typeId: `${V1}#Sample` }],
            typeIds: v1Ids,
          },
        ],
      },
    ],
    types: Object.fromEntries(types.map((t) => [t.id, t])),
  };
}
