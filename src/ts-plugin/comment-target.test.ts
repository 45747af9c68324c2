import ts from 'typescript';
import { commentTarget } from './comment-target.js';
import { generatorInputOf } from './marker-diagnostics.js';

const TEXT = [
  '// +groupName=example.com',
  "export const groupVersion = { group: 'example.com' };",
  '',
  '// +kubebuilder:object:root=true',
  'export interface Thing {',
  '  // +optional',
  '  a?: string;',
  '  // +kubebuilder:validation:MinLength=1',
  '}',
  '/** +kubebuilder:validation:Enum=A;B */',
  "export type Letter = 'A' | 'B';",
  "export type Inline = { /* +optional */ b?: string };",
  '// +kubebuilder:skip',
].join('\n');

describe('commentTarget', () => {
  const source = ts.createSourceFile('x.ts', TEXT, ts.ScriptTarget.Latest, true);
  const at = (snippet: string) => TEXT.indexOf(snippet) + 3;

  it('tells package, type and field comments of an API file apart', () => {
    expect(commentTarget(ts, source, at('+groupName'), 'api')).toBe('package');
    expect(commentTarget(ts, source, at('+kubebuilder:object:root'), 'api')).toBe('type');
    expect(commentTarget(ts, source, at('+optional'), 'api')).toBe('field');
    expect(commentTarget(ts, source, at('+kubebuilder:validation:MinLength'), 'api')).toBe('field'); // after the last field
    expect(commentTarget(ts, source, at('+kubebuilder:validation:Enum'), 'api')).toBe('type');
    expect(commentTarget(ts, source, at('/* +optional'), 'api')).toBe('field');
    expect(commentTarget(ts, source, at('+kubebuilder:skip'), 'api')).toBe('package');
  });

  it('reads every comment of a controller file at package level', () => {
    expect(commentTarget(ts, source, at('+optional'), 'controller')).toBe('package');
  });
});

describe('generatorInputOf', () => {
  it('knows the files manifests reads', () => {
    expect(generatorInputOf('api/v1/thing_types.ts')).toBe('api');
    expect(generatorInputOf('api/batch/v1/groupversion_info.ts')).toBe('api');
    expect(generatorInputOf('internal/controller/thing_controller.ts')).toBe('controller');
    expect(generatorInputOf('internal/webhook/v1/thing_webhook.ts')).toBe('controller');
    for (const skipped of ['api/v1/zz_generated.deepcopy.ts', 'api/v1/thing_types.test.ts', 'internal/controller/thing_controller.test.ts', 'cmd/main.ts', 'api/v1/x.d.ts', 'test/e2e/e2e.test.ts'])
      expect([skipped, generatorInputOf(skipped)]).toEqual([skipped, undefined]);
  });
});
