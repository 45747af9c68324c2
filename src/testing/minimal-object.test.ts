/** minimalObject: every required field of a CRD's schema filled with the smallest value it accepts. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { defineKind, type KubeObject } from '../runtime/index.js';
import { minimalObject } from './minimal-object.js';

const spec = {
  type: 'object',
  required: ['schedule', 'limit', 'policy', 'template', 'ports', 'mode', 'started'],
  properties: {
    schedule: { type: 'string', minLength: 3 },
    limit: { type: 'integer', minimum: 1 },
    optional: { type: 'string' },
    policy: { type: 'string', enum: ['Allow', 'Forbid'] },
    mode: { type: 'string', default: 'fast' },
    started: { type: 'string', format: 'date-time' },
    template: { type: 'object', required: ['image'], properties: { image: { type: 'string', pattern: '^[a-z]+$' }, tag: { type: 'string' } } },
    ports: { type: 'array', minItems: 2, items: { type: 'object', required: ['name', 'port'], properties: { name: { type: 'string' }, port: { type: 'integer', minimum: 1, exclusiveMinimum: true } } } },
  },
};

function crdFolder(specSchema: object): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-minimal-'));
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', required: ['spec'], properties: { spec: specSchema, status: { type: 'object' } } } } }] },
  };
  writeFileSync(join(dir, 'example.com_widgets.yaml'), stringify(crd));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const WidgetKind = defineKind<KubeObject & { spec: Record<string, unknown> }>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

test('fills every required field, nested ones too, with the smallest allowed value', () => {
  const folder = crdFolder(spec);
  try {
    const widget = minimalObject(WidgetKind, { crdPaths: [folder.dir], name: 'w' });
    expect(widget).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: {
        schedule: 'aaa',
        limit: 1,
        policy: 'Allow',
        mode: 'fast',
        started: '1970-01-01T00:00:00Z',
        template: { image: 'a' },
        ports: [
          { name: '', port: 2 },
          { name: '1', port: 2 },
        ],
      },
    });
  } finally {
    folder.remove();
  }
});

test('a pattern no simple value matches is an error naming the field; a missing CRD names the folder', () => {
  const folder = crdFolder({ type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9]{3}-[a-z]$' } } });
  try {
    expect(() => minimalObject(WidgetKind, { crdPaths: [folder.dir], name: 'w' })).toThrow('minimalObject: widgets.example.com v1: .spec.id: no simple value matches pattern ^[0-9]{3}-[a-z]$; build this object by hand in the test');
    const Other = defineKind<KubeObject>({ group: 'example.com', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: false });
    expect(() => minimalObject(Other, { crdPaths: [folder.dir], name: 'g' })).toThrow(`minimalObject: no CRD gadgets.example.com in ${folder.dir} (run \`make manifests\`)`);
  } finally {
    folder.remove();
  }
});
