/**
 * What `kubeforge dev` does for a saved file, the marker lines that decide when `manifests` runs for a
 * controller edit, and the Makefile's manifests flags dev reuses.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyChange, combinedChange, MarkerLines } from './dev-changes.js';
import { makefileManifestsFlags } from './dev-generators.js';

describe('classifyChange', () => {
  it.each([
    ['api/v1/cronjob_types.ts', 'api'],
    ['api/batch/v1/cronjob_types.ts', 'api'],
    ['internal/controller/cronjob_controller.ts', 'code'],
    ['internal/webhook/v1/cronjob_webhook.ts', 'code'],
    ['cmd/main.ts', 'code'],
    ['config/manager/manager.yaml', 'restart'],
    ['tsconfig.build.json', 'settings'],
    ['tsconfig.json', 'settings'],
    ['package.json', 'settings'],
    // what dev writes itself, tests, output and everything else
    ['api/v1/zz_generated.deepcopy.ts', 'ignored'],
    ['config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml', 'ignored'],
    ['config/rbac/role.yaml', 'ignored'],
    ['config/webhook/manifests.yaml', 'ignored'],
    ['internal/controller/cronjob_controller.test.ts', 'ignored'],
    ['test/e2e/e2e.test.ts', 'ignored'],
    ['dist/cmd/main.js', 'ignored'],
    ['node_modules/kubeforge/package.json', 'ignored'],
    ['.kubeforge/cluster/objects.db', 'ignored'],
    ['README.md', 'ignored'],
  ])('%s → %s', (path, kind) => {
    expect(classifyChange(path)).toBe(kind);
  });

  it('several changes at once take the widest cycle', () => {
    expect(combinedChange(['code', 'api', 'restart'])).toBe('api');
    expect(combinedChange(['restart', 'code'])).toBe('code');
    expect(combinedChange(['restart', 'settings'])).toBe('settings');
    expect(combinedChange(['restart'])).toBe('restart');
  });
});

describe('MarkerLines', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubeforge-dev-markers-'));
    mkdirSync(join(root, 'internal/controller'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a code edit keeps the markers; a new rbac marker changes them, once', () => {
    const file = 'internal/controller/c.ts';
    writeFileSync(join(root, file), '// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get\nexport const a = 1;\n');
    const markers = new MarkerLines(root);
    markers.remember(file);
    writeFileSync(join(root, file), '// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get\nexport const a = 2;\n');
    expect(markers.changed(file)).toBe(false);
    writeFileSync(join(root, file), '// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list\nexport const a = 2;\n');
    expect(markers.changed(file)).toBe(true);
    expect(markers.changed(file)).toBe(false);
  });

  it('a new file with markers counts as changed markers, one without does not', () => {
    const markers = new MarkerLines(root);
    writeFileSync(join(root, 'internal/controller/plain.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'internal/controller/hook.ts'), '// +kubebuilder:webhook:path=/x,mutating=true\n');
    expect(markers.changed('internal/controller/plain.ts')).toBe(false);
    expect(markers.changed('internal/controller/hook.ts')).toBe(true);
  });
});

describe('makefileManifestsFlags', () => {
  let root = '';
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'kubeforge-dev-makefile-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("reads the flags of the Makefile's manifests recipe, as the CronJob tutorial sets them", () => {
    writeFileSync(join(root, 'Makefile'), '.PHONY: manifests\nmanifests:\n\t$(KUBEFORGE) manifests --strict-markers --max-desc-len=0 --allow-dangerous-types --frobnicate\n');
    expect(makefileManifestsFlags(root)).toEqual({ flags: { strictMarkers: true, maxDescLen: 0, allowDangerousTypes: true }, ignored: ['--frobnicate'] });
  });

  it('no flags, and no Makefile at all, mean the defaults', () => {
    expect(makefileManifestsFlags(root)).toEqual({ flags: {}, ignored: [] });
    writeFileSync(join(root, 'Makefile'), 'manifests:\n\t$(KUBEFORGE) manifests\n');
    expect(makefileManifestsFlags(root)).toEqual({ flags: {}, ignored: [] });
  });
});
