// The API-evolution rules on hand-made CRDs: each rule's verdict (breaking or not), its id and its path, for the
// changes the CLI test's git history does not make.
import type { CrdVersion, CustomResourceDefinition } from '../generate/crd/index.js';
import type { Schema } from '../generate/crd/schema.js';
import { compareCrds } from './compare-crds.js';
import { parseAcknowledgements } from './acknowledgements.js';

function version(name: string, spec: Schema, extra: Partial<CrdVersion> = {}): CrdVersion {
  return {
    name,
    served: true,
    storage: true,
    schema: { openAPIV3Schema: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec } } },
    ...extra,
  };
}

function crd(versions: CrdVersion[], changes: { group?: string; scope?: string } = {}): CustomResourceDefinition {
  const group = changes.group ?? 'batch.example.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { annotations: {}, name: `widgets.${group}` },
    spec: { group, names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' }, scope: changes.scope ?? 'Namespaced', versions },
  };
}

const spec = (properties: Record<string, Schema>, more: Schema = {}): Schema => ({ type: 'object', properties, ...more });

/** id → breaking, for the findings between two spec schemas of v1. */
function verdicts(before: Schema, after: Schema): Record<string, boolean> {
  const findings = compareCrds([crd([version('v1', before)])], [crd([version('v1', after)])]);
  return Object.fromEntries(findings.map((f) => [f.id, f.breaking]));
}

const P = 'widgets.batch.example.com/v1/spec';

describe('compareCrds', () => {
  it('widens int32 to int64 without breaking, and narrowing it back breaks', () => {
    const int32 = spec({ n: { type: 'integer', format: 'int32' } });
    const int64 = spec({ n: { type: 'integer', format: 'int64' } });
    expect(verdicts(int32, int64)).toEqual({ [`${P}.n:format-loosened`]: false });
    expect(verdicts(int64, int32)).toEqual({ [`${P}.n:format-changed`]: true });
  });

  it('makes an inclusive minimum exclusive a tightening', () => {
    expect(verdicts(spec({ n: { type: 'integer', minimum: 0 } }), spec({ n: { type: 'integer', minimum: 0, exclusiveMinimum: true } }))).toEqual({
      [`${P}.n:exclusiveMinimum-added`]: true,
    });
  });

  it('follows array items and map values, and names them in the path', () => {
    const before = spec({ tags: { type: 'array', items: { type: 'string' } }, labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 10 } } });
    const after = spec({ tags: { type: 'array', items: { type: 'string', pattern: '^a' } }, labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 20 } } });
    expect(verdicts(before, after)).toEqual({ [`${P}.tags[*]:pattern-added`]: true, [`${P}.labels.*:maxLength-loosened`]: false });
  });

  it('says optional → required breaks and required → optional does not', () => {
    const optional = spec({ a: { type: 'string' } });
    const required = spec({ a: { type: 'string' } }, { required: ['a'] });
    expect(verdicts(optional, required)).toEqual({ [`${P}.a:field-now-required`]: true });
    expect(verdicts(required, optional)).toEqual({ [`${P}.a:field-now-optional`]: false });
  });

  it('guesses a rename when one field goes and one of its type comes', () => {
    const findings = compareCrds([crd([version('v1', spec({ colour: { type: 'string' } }))])], [crd([version('v1', spec({ color: { type: 'string' } }))])]);
    expect(findings.map((f) => [f.id, f.breaking, f.change])).toEqual([
      [`${P}.colour:field-removed`, true, 'field colour removed (renamed to color?)'],
      [`${P}.color:field-added`, false, 'optional field color added'],
    ]);
  });

  it('breaks on a changed list type and on dropping preserve-unknown-fields', () => {
    const before = spec({ l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }, raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
    const after = spec({ l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }, raw: { type: 'object' } });
    expect(verdicts(before, after)).toEqual({ [`${P}.l:x-kubernetes-list-type-changed`]: true, [`${P}.raw:preserve-unknown-fields-removed`]: true });
  });

  it('gives two new rules on one field two ids', () => {
    const after = spec({ a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != "x"' }, { rule: 'self != "y"' }] } });
    const ids = Object.keys(verdicts(spec({ a: { type: 'string' } }), after));
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => /^widgets\.batch\.example\.com\/v1\/spec\.a:cel-rule-added:[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it('notes a storage version change without failing, and a removed status subresource as breaking', () => {
    const s = spec({});
    const before = crd([version('v1', s, { subresources: { status: {} } }), version('v2', s, { storage: false })]);
    const after = crd([version('v1', s, { storage: false }), version('v2', s)]);
    const findings = compareCrds([before], [after]);
    expect(findings.map((f) => [f.id, f.breaking])).toEqual([
      ['widgets.batch.example.com/v1:status-subresource-removed', true],
      ['widgets.batch.example.com/v2:storage-version-changed', false],
    ]);
    expect(findings[1]!.why).toContain('objects already stored in v1 stay so');
  });

  it('pairs a kind whose group changed and says so, and breaks on a changed scope', () => {
    const s = spec({});
    const findings = compareCrds([crd([version('v1', s)])], [crd([version('v1', s)], { group: 'apps.example.com', scope: 'Cluster' })]);
    expect(findings.map((f) => [f.id, f.breaking])).toEqual([
      ['widgets.apps.example.com:group-changed', true],
      ['widgets.apps.example.com:scope-changed', true],
    ]);
  });
});

describe('parseAcknowledgements', () => {
  it('reads ids, reasons and lines', () => {
    expect(parseAcknowledgements('# accepted\nacknowledged:\n  - id: a:b\n    reason: " ok "\n', 'api-compat.yaml')).toEqual({
      ok: true,
      acknowledgements: [{ id: 'a:b', reason: 'ok', line: 3 }],
    });
    expect(parseAcknowledgements('', 'api-compat.yaml')).toEqual({ ok: true, acknowledgements: [] });
  });

  it('names the line and field of what is wrong', () => {
    expect(parseAcknowledgements('acknowleged: []\n', 'f.yaml')).toEqual({ ok: false, error: 'f.yaml:1: unknown field "acknowleged" (the file has one field, "acknowledged")' });
    expect(parseAcknowledgements('acknowledged:\n  - id: a\n    reason: r\n  - id: a\n    reason: s\n', 'f.yaml')).toEqual({
      ok: false,
      error: 'f.yaml:4: acknowledged[1].id: "a" is acknowledged already at line 2',
    });
    expect(parseAcknowledgements('acknowledged:\n  - id: a\n    reason: r\n    why: x\n', 'f.yaml')).toEqual({ ok: false, error: 'f.yaml:4: acknowledged[0].why: unknown field (an entry has "id" and "reason")' });
    const broken = parseAcknowledgements('acknowledged:\n  - id: [a\n', 'f.yaml');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^f\.yaml:\d+: not valid YAML: /);
  });
});
