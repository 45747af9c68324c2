/**
 * `kubeforge create api`: two kinds in two groups (multigroup layout), a single-group project, the
 * insertions at the scaffold markers, PROJECT, and the manifests/generate run that follows.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createApi, init, read, tempProject, treeHash } from './scaffold-harness.js';

describe('kubeforge create api', () => {
  describe('in a multigroup project, two kinds in two groups', () => {
    const project = tempProject('fleet');
    let results: Array<{ code: number; out: string; err: string }> = [];

    beforeAll(async () => {
      init(project.root, { multigroup: true });
      results = [
        await createApi(project.root, { group: 'batch', version: 'v1', kind: 'CronJob' }),
        await createApi(project.root, { group: 'ship', version: 'v1beta1', kind: 'Frigate', namespaced: false }),
      ];
    });
    afterAll(() => project.remove());

    it('succeeds and runs manifests and generate', () => {
      for (const r of results) expect(r).toMatchObject({ code: 0, err: '' });
      expect(results[0]!.out).toContain('wrote config/crd/bases/batch.example.com_cronjobs.yaml');
      expect(results[1]!.out).toContain('wrote config/crd/bases/ship.example.com_frigates.yaml');
      expect(existsSync(join(project.root, 'api/batch/v1/zz_generated.deepcopy.ts'))).toBe(true);
      expect(existsSync(join(project.root, 'api/ship/v1beta1/zz_generated.deepcopy.ts'))).toBe(true);
    });

    it('writes types with an example field, conditions, the root kind and its List', () => {
      const types = read(project.root, 'api/batch/v1/cronjob_types.ts');
      expect(types).toContain('export interface CronJobSpec {');
      expect(types).toContain('foo?: string;');
      expect(types).toContain('conditions?: Condition[];');
      expect(types).toMatch(/\/\/ \+kubebuilder:object:root=true\n\/\/ \+kubebuilder:subresource:status\nexport interface CronJob \{/);
      expect(types).toContain("apiVersion: 'batch.example.com/v1';");
      expect(types).toContain('export interface CronJobList {');
      expect(read(project.root, 'api/batch/v1/groupversion_info.ts')).toContain('// +groupName=batch.example.com');
      expect(read(project.root, 'api/ship/v1beta1/frigate_types.ts')).toContain('// +kubebuilder:resource:scope=Cluster');
    });

    it('generates CRDs with the scope, status subresource and example field', () => {
      const cronjobs = parse(read(project.root, 'config/crd/bases/batch.example.com_cronjobs.yaml'));
      expect(cronjobs.spec).toMatchObject({ group: 'batch.example.com', scope: 'Namespaced', names: { kind: 'CronJob', plural: 'cronjobs', listKind: 'CronJobList' } });
      expect(cronjobs.spec.versions[0].subresources).toEqual({ status: {} });
      expect(cronjobs.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.foo).toMatchObject({ type: 'string', minLength: 1 });
      expect(parse(read(project.root, 'config/crd/bases/ship.example.com_frigates.yaml')).spec.scope).toBe('Cluster');
    });

    it('generates the manager role from the controllers RBAC markers', () => {
      const role = parse(read(project.root, 'config/rbac/role.yaml'));
      const groups = role.rules.flatMap((r: { apiGroups: string[] }) => r.apiGroups);
      expect(groups).toEqual(expect.arrayContaining(['batch.example.com', 'ship.example.com']));
    });

    it('puts controllers under internal/controller/<group> and registers both in index.ts', () => {
      const index = read(project.root, 'internal/controller/index.ts');
      expect(index).toContain("import { setupCronJobController as setupBatchCronJobController } from './batch/cronjob_controller.js';");
      expect(index).toContain("import { setupFrigateController as setupShipFrigateController } from './ship/frigate_controller.js';");
      expect(index).toMatch(/setupBatchCronJobController\(mgr\);\n\s+setupShipFrigateController\(mgr\);\n\s+\/\/ \+kubebuilder:scaffold:builder/);
      const controller = read(project.root, 'internal/controller/batch/cronjob_controller.ts');
      expect(controller).toContain('// +kubebuilder:rbac:groups=batch.example.com,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete');
      expect(controller).toContain("from '../../../api/batch/v1/cronjob_types.js'");
      expect(existsSync(join(project.root, 'internal/controller/batch/cronjob_controller.test.ts'))).toBe(true);
    });

    it('adds the CRD, sample and per-kind roles to their kustomizations', () => {
      expect(parse(read(project.root, 'config/crd/kustomization.yaml')).resources).toEqual(['bases/batch.example.com_cronjobs.yaml', 'bases/ship.example.com_frigates.yaml']);
      expect(parse(read(project.root, 'config/samples/kustomization.yaml')).resources).toEqual(['batch_v1_cronjob.yaml', 'ship_v1beta1_frigate.yaml']);
      expect(parse(read(project.root, 'config/rbac/kustomization.yaml')).resources).toEqual(
        expect.arrayContaining(['batch_cronjob_admin_role.yaml', 'batch_cronjob_editor_role.yaml', 'batch_cronjob_viewer_role.yaml', 'ship_frigate_viewer_role.yaml']),
      );
      expect(parse(read(project.root, 'config/samples/batch_v1_cronjob.yaml'))).toMatchObject({ apiVersion: 'batch.example.com/v1', kind: 'CronJob', metadata: { name: 'cronjob-sample' } });
      expect(parse(read(project.root, 'config/rbac/batch_cronjob_editor_role.yaml')).metadata.name).toBe('batch-cronjob-editor-role');
    });

    it('records both resources in PROJECT', () => {
      const config = parse(read(project.root, 'PROJECT'));
      expect(config.multigroup).toBe(true);
      expect(config.resources).toEqual([
        { api: { crdVersion: 'v1', namespaced: true }, controller: true, domain: 'example.com', group: 'batch', kind: 'CronJob', path: 'my-operator/api/batch/v1', version: 'v1' },
        { api: { crdVersion: 'v1', namespaced: false }, controller: true, domain: 'example.com', group: 'ship', kind: 'Frigate', path: 'my-operator/api/ship/v1beta1', version: 'v1beta1' },
      ]);
    });

    it('refuses the same kind twice and changes nothing', async () => {
      const before = treeHash(project.root);
      const again = await createApi(project.root, { group: 'batch', version: 'v1', kind: 'CronJob' });
      expect(again.code).toBe(1);
      expect(again.err).toBe('kubeforge create api: --kind "CronJob": the API batch/v1 CronJob already exists in PROJECT (use --force to scaffold it again)');
      expect(treeHash(project.root)).toBe(before);
    });
  });

  describe('in a single-group project', () => {
    const project = tempProject('single');
    afterAll(() => project.remove());

    it('uses api/<version> and internal/controller, with a custom plural and without the controller', async () => {
      init(project.root);
      const r = await createApi(project.root, { group: 'webapp', version: 'v1', kind: 'Guestbook', plural: 'guestbookz', controller: false });
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(read(project.root, 'api/v1/guestbook_types.ts')).toContain('// +kubebuilder:resource:path=guestbookz');
      expect(existsSync(join(project.root, 'internal/controller/guestbook_controller.ts'))).toBe(false);
      expect(existsSync(join(project.root, 'config/crd/bases/webapp.example.com_guestbookz.yaml'))).toBe(true);
      expect(parse(read(project.root, 'PROJECT')).resources[0]).toMatchObject({ kind: 'Guestbook', plural: 'guestbookz' });
    });

    it('adds the controller later with --resource=false', async () => {
      const r = await createApi(project.root, { group: 'webapp', version: 'v1', kind: 'Guestbook', resource: false, force: true });
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(read(project.root, 'internal/controller/guestbook_controller.ts')).toContain("from '../../api/v1/guestbook_types.js'");
      expect(read(project.root, 'internal/controller/guestbook_controller.ts')).toContain('// +kubebuilder:rbac:groups=webapp.example.com,resources=guestbookz,verbs=');
      expect(parse(read(project.root, 'PROJECT')).resources[0]).toMatchObject({ controller: true, plural: 'guestbookz', api: { namespaced: true } });
      expect(read(project.root, 'internal/controller/index.ts')).toContain('setupGuestbookController(mgr);');
    });

    it('a second version of a kind conflicts with its controller when asked for one (--controller=true)', async () => {
      const before = treeHash(project.root);
      const r = await createApi(project.root, { group: 'webapp', version: 'v2', kind: 'Guestbook', controller: true });
      expect(r.code).toBe(1);
      expect(r.err).toContain('internal/controller/guestbook_controller.ts already exists (use --force to overwrite it)');
      expect(treeHash(project.root)).toBe(before);
    });

    it('--dry-run lists creations and updates and writes nothing; a second version gets no controller by default', async () => {
      const before = treeHash(project.root);
      const r = await createApi(project.root, { group: 'webapp', version: 'v2', kind: 'Guestbook', dryRun: true });
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toContain('create api/v2/guestbook_types.ts');
      expect(r.out).not.toContain('internal/controller');
      // v1 stays the storage version: it gets the +kubebuilder:storageversion marker.
      expect(r.out).toContain('update api/v1/guestbook_types.ts');
      expect(r.out).toContain('update PROJECT');
      expect(r.out).toContain('update config/crd/kustomization.yaml');
      expect(treeHash(project.root)).toBe(before);
    });
  });

  it('--multigroup on the first create api switches the project to api/<group>/<version>', async () => {
    const project = tempProject('late');
    try {
      init(project.root);
      const r = await createApi(project.root, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', multigroup: true, make: false });
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(existsSync(join(project.root, 'api/cache/v1alpha1/memcached_types.ts'))).toBe(true);
      expect(existsSync(join(project.root, 'internal/controller/cache/memcached_controller.ts'))).toBe(true);
      expect(parse(read(project.root, 'PROJECT')).multigroup).toBe(true);
    } finally {
      project.remove();
    }
  });
});
