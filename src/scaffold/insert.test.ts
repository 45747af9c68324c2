import { insertAtMarker, MissingMarkerError, planUncommentSection } from './insert.js';
import { ScaffoldPlan } from './plan.js';

describe('insertAtMarker', () => {
  const index = ["import type { Manager } from 'kubeforge/runtime';", '// +kubebuilder:scaffold:imports', '', 'export async function setupControllers(mgr: Manager) {', '  // +kubebuilder:scaffold:builder', '}', ''].join('\n');

  it("puts the fragment above the marker with the marker's indentation", () => {
    const out = insertAtMarker(index, 'builder', 'setupA(mgr);', 'index.ts');
    expect(out).toContain('  setupA(mgr);\n  // +kubebuilder:scaffold:builder');
  });

  it('keeps insertion order: each new fragment goes after the earlier ones', () => {
    const out = insertAtMarker(insertAtMarker(index, 'builder', 'setupA(mgr);', 'f'), 'builder', 'setupB(mgr);', 'f');
    expect(out).toContain('  setupA(mgr);\n  setupB(mgr);\n  // +kubebuilder:scaffold:builder');
  });

  it('is idempotent', () => {
    const once = insertAtMarker(index, 'imports', "import { a } from './a.js';", 'f');
    expect(insertAtMarker(once, 'imports', "import { a } from './a.js';", 'f')).toBe(once);
  });

  it('inserts multi-line fragments and YAML list entries after a # marker', () => {
    const yaml = 'resources:\n- role.yaml\n# +kubebuilder:scaffold:crdroles\n';
    expect(insertAtMarker(yaml, 'crdroles', '- a_admin_role.yaml\n- a_viewer_role.yaml', 'k.yaml')).toBe('resources:\n- role.yaml\n- a_admin_role.yaml\n- a_viewer_role.yaml\n# +kubebuilder:scaffold:crdroles\n');
  });

  it('matches the marker exactly, not a longer one', () => {
    const text = '// +kubebuilder:scaffold:importsExtra\n';
    expect(() => insertAtMarker(text, 'imports', 'x', 'main.ts')).toThrow(MissingMarkerError);
  });

  it('names the file and the marker when the marker is missing', () => {
    expect(() => insertAtMarker('nothing here\n', 'builder', 'x', 'internal/controller/index.ts')).toThrow(
      'internal/controller/index.ts: the "+kubebuilder:scaffold:builder" marker line is missing; put it back where new entries should go',
    );
  });
});

describe('planUncommentSection', () => {
  const text = ['patches:', '# [CERTMANAGER] replacements', '#replacements:', '# [CERTMANAGER] any webhook: dns names', '#- source:', '#    kind: Service', '# [CERTMANAGER] a validating webhook', '#- source:', '#    kind: Certificate', ''].join('\n');
  const planOf = (content: string): ScaffoldPlan => {
    const plan = new ScaffoldPlan('/nonexistent-root');
    plan.createIfMissing('config/default/kustomization.yaml', content);
    return plan;
  };

  it('uncomments the lines under a label up to the next label, once', () => {
    const plan = planOf(text);
    planUncommentSection(plan, 'config/default/kustomization.yaml', '# [CERTMANAGER] replacements');
    planUncommentSection(plan, 'config/default/kustomization.yaml', '# [CERTMANAGER] any webhook');
    const once = plan.read('config/default/kustomization.yaml')!;
    expect(once).toBe(['patches:', '# [CERTMANAGER] replacements', 'replacements:', '# [CERTMANAGER] any webhook: dns names', '- source:', '    kind: Service', '# [CERTMANAGER] a validating webhook', '#- source:', '#    kind: Certificate', ''].join('\n'));
    planUncommentSection(plan, 'config/default/kustomization.yaml', '# [CERTMANAGER] any webhook');
    expect(plan.read('config/default/kustomization.yaml')).toBe(once);
  });

  it('is a conflict naming the label when the label is gone', () => {
    const plan = planOf('patches:\n');
    planUncommentSection(plan, 'config/default/kustomization.yaml', '# [CERTMANAGER] replacements');
    expect(() => plan.assertNoConflicts()).toThrow('config/default/kustomization.yaml: expected the comment line "# [CERTMANAGER] replacements…" above the lines to enable; restore it or enable them by hand');
  });
});
