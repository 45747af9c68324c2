import { insertAtMarker, MissingMarkerError } from './insert.js';

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
