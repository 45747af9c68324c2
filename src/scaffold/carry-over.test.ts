/** What `kubeforge alpha generate` keeps of a project (issue 18): each kind of file, package.json, retired imports. */
import { carryOver, mergePackageJson, rewriteRetiredImports, type ProjectFiles } from './carry-over.js';

const files = (entries: Record<string, string>): ProjectFiles => new Map(Object.entries(entries).map(([path, text]) => [path, Buffer.from(text)]));
const text = (result: ProjectFiles, path: string): string | undefined => result.get(path)?.toString('utf8');

describe('carryOver', () => {
  const old = files({
    'cmd/flags.ts': 'old flags',
    'cmd/main.ts': "import { parseFlags } from './flags.js';",
    'Makefile': 'old make',
    'api/v1/ship_types.ts': '// EDIT THIS FILE!\nexport interface ShipSpec { crew?: number }',
    'internal/controller/mine.ts': 'export const mine = 1;',
    'internal/webhook/admission.ts': 'old shapes',
    'internal/webhook/v1/ship_webhook.ts': "import type { CustomValidator } from '../admission.js';\n// TODO(user) done",
    'config/crd/bases/x.example.com_ships.yaml': 'crew: {}',
    'README.md': '# mine',
  });
  const fresh = files({
    'cmd/main.ts': "import { parseManagerFlags } from 'kubeforge/runtime';",
    'cmd/run-local.ts': 'new run-local',
    'Makefile': 'old make',
    'api/v1/ship_types.ts': '// EDIT THIS FILE!\nexport interface ShipSpec { foo?: string }',
    'internal/webhook/v1/ship_webhook.ts': "import type { CustomValidator } from 'kubeforge/runtime';\n// TODO(user)",
    'config/crd/bases/x.example.com_ships.yaml': 'foo: {}',
    'README.md': '# fresh',
  });
  const result = carryOver(old, fresh);

  it("keeps the user's files, takes the scaffold's fresh, drops the retired ones", () => {
    expect(text(result.files, 'api/v1/ship_types.ts')).toContain('crew?: number');
    expect(text(result.files, 'internal/controller/mine.ts')).toBe('export const mine = 1;');
    expect(text(result.files, 'config/crd/bases/x.example.com_ships.yaml')).toBe('crew: {}');
    expect(text(result.files, 'README.md')).toBe('# mine');
    expect(text(result.files, 'cmd/main.ts')).toBe("import { parseManagerFlags } from 'kubeforge/runtime';");
    expect(result.files.has('cmd/flags.ts')).toBe(false);
    expect(result.files.has('internal/webhook/admission.ts')).toBe(false);
    expect({ retired: result.retired, replaced: result.replaced, added: result.added, rewritten: result.rewritten }).toEqual({
      retired: ['cmd/flags.ts', 'internal/webhook/admission.ts'],
      replaced: ['cmd/main.ts'],
      added: ['cmd/run-local.ts'],
      rewritten: ['internal/webhook/v1/ship_webhook.ts'],
    });
    expect(text(result.files, 'internal/webhook/v1/ship_webhook.ts')).toBe("import type { CustomValidator } from 'kubeforge/runtime';\n// TODO(user) done");
  });
});

describe('rewriteRetiredImports', () => {
  it('points imports of the retired admission.ts at kubeforge/runtime, from any folder, and leaves others alone', () => {
    expect(rewriteRetiredImports('internal/webhook/ship/v1/w.ts', "import type { CustomDefaulter } from '../../admission.js';")).toBe("import type { CustomDefaulter } from 'kubeforge/runtime';");
    expect(rewriteRetiredImports('internal/webhook/v1/w.ts', "import { x } from './admission.js';")).toBe("import { x } from './admission.js';");
    expect(rewriteRetiredImports('docs/notes.md', "from '../admission.js'")).toBe("from '../admission.js'");
  });
});

describe('mergePackageJson', () => {
  it("keeps the project's own dependencies and scripts; kubeforge and the tools at the fresh file's versions", () => {
    const old = JSON.stringify({ dependencies: { kubeforge: '^0.1.0', cron: '^3' }, devDependencies: { jest: '29' }, scripts: { test: 'old', seed: 'node seed.js' } }, null, 2);
    const fresh = `${JSON.stringify({ name: 'p', dependencies: { kubeforge: '^0.2.0' }, devDependencies: { jest: '30' }, scripts: { test: 'jest' } }, null, 2)}\n`;
    expect(JSON.parse(mergePackageJson(old, fresh))).toEqual({
      name: 'p',
      dependencies: { kubeforge: '^0.2.0', cron: '^3' },
      devDependencies: { jest: '30' },
      scripts: { test: 'jest', seed: 'node seed.js' },
    });
  });
});
