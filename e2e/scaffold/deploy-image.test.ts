/**
 * `kubeforge create api --plugins deploy-image/v1-alpha` (kubebuilder's deploy-image plugin): the files it
 * makes for the kubebuilder book's Memcached command line, what it makes without the optional flags, the
 * command through the real command-line parser, and every bad flag refused before anything is written.
 */
import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { main } from '../../src/cli/main.js';
import { createApi, init, read, tempProject, treeHash, type CommandResult } from './scaffold-harness.js';

const MEMCACHED = {
  group: 'cache',
  version: 'v1alpha1',
  kind: 'Memcached',
  plugins: 'deploy-image/v1-alpha',
  image: 'memcached:1.6.26-alpine',
  imageContainerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
  imageContainerPort: '11211',
  runAsUser: '1001',
};

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

describe('create api --plugins deploy-image/v1-alpha', () => {
  describe('the kubebuilder book\'s Memcached command line', () => {
    const project = tempProject('memcached-operator');
    let result: CommandResult;

    beforeAll(async () => {
      expect(init(project.root, { domain: 'example.com', repo: 'memcached-operator' }).code).toBe(0);
      result = await createApi(project.root, MEMCACHED);
    });
    afterAll(() => project.remove());

    it('succeeds, writes the plugin\'s files and runs manifests and generate', () => {
      expect(result).toMatchObject({ code: 0, err: '' });
      for (const line of [
        'create api/v1alpha1/memcached_types.ts',
        'create internal/controller/memcached_controller.ts',
        'create internal/controller/memcached_controller.test.ts',
        'create internal/controller/conditions.ts',
        'create config/samples/cache_v1alpha1_memcached.yaml',
        'update config/manager/manager.yaml',
        'update PROJECT',
        'wrote config/crd/bases/cache.example.com_memcacheds.yaml',
        'wrote config/rbac/role.yaml',
        'wrote api/v1alpha1/zz_generated.deepcopy.ts',
      ]) {
        expect(result.out.split('\n')).toContain(line);
      }
    });

    it('types: size validated 1..3 (ExclusiveMaximum=false), a required containerPort, conditions as a map list', () => {
      const types = read(project.root, 'api/v1alpha1/memcached_types.ts');
      expect(types).toContain('// +kubebuilder:validation:Minimum=1\n  // +kubebuilder:validation:Maximum=3\n  // +kubebuilder:validation:ExclusiveMaximum=false\n  // +optional\n  size?: int32;');
      expect(types).toContain('// +required\n  containerPort: int32;');
      expect(types).toContain('// +listType=map\n  // +listMapKey=type\n  // +optional\n  conditions?: Condition[];');
      const crd = parse(read(project.root, 'config/crd/bases/cache.example.com_memcacheds.yaml'));
      const schema = crd.spec.versions[0].schema.openAPIV3Schema;
      expect(schema.properties.spec.properties.size).toMatchObject({ type: 'integer', format: 'int32', minimum: 1, maximum: 3 });
      expect(schema.properties.spec.properties.containerPort).toMatchObject({ type: 'integer', format: 'int32' });
      expect(schema.properties.spec.required).toEqual(['containerPort']);
      expect(schema.properties.status.properties.conditions).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    });

    it('controller: finalizer, conditions, the Event, the image from MEMCACHED_IMAGE, the restricted container, Owns(Deployment)', () => {
      const controller = read(project.root, 'internal/controller/memcached_controller.ts');
      expect(controller).toContain("export const memcachedFinalizer = 'cache.example.com/finalizer';");
      expect(controller).toContain("export const typeAvailableMemcached = 'Available';");
      expect(controller).toContain("export const typeDegradedMemcached = 'Degraded';");
      expect(controller).toContain("message: 'Starting reconciliation'");
      expect(controller).toContain('message: `Performing finalizer operations for the custom resource: ${name} `');
      expect(controller).toContain('message: `Finalizer operations for custom resource ${name} name were successfully accomplished`');
      expect(controller).toContain('message: `Deployment for custom resource (${memcached.metadata!.name!}) with ${size} replicas created successfully`');
      expect(controller).toContain("await this.recorder.event(cr, 'Warning', 'Deleting', `Custom Resource ${cr.metadata!.name!} is being deleted from the namespace ${cr.metadata!.namespace!}`, 'DeleteCR');");
      expect(controller).toContain("const imageEnvVar = 'MEMCACHED_IMAGE';");
      expect(controller).toContain("securityContext: {\n              runAsNonRoot: true,");
      expect(controller).toContain("seccompProfile: { type: 'RuntimeDefault' },");
      expect(controller).toContain('runAsNonRoot: true,\n                  runAsUser: 1001,\n                  allowPrivilegeEscalation: false,\n                  readOnlyRootFilesystem: true,\n                  capabilities: { drop: [\'ALL\'] },');
      expect(controller).toContain("ports: [{ containerPort: memcached.spec.containerPort, name: 'memcached' }],");
      expect(controller).toContain("command: ['memcached', '--memory-limit=64', '-o', 'modern', '-v'],");
      expect(controller).toContain(".named('memcached')\n    .owns(BuiltinKinds.Deployment)");
      for (const marker of [
        '// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds,verbs=get;list;watch;create;update;patch;delete',
        '// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/status,verbs=get;update;patch',
        '// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/finalizers,verbs=update',
        '// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch',
        '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete',
        '// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch',
      ]) {
        expect(controller).toContain(marker);
      }
      expect(read(project.root, 'internal/controller/conditions.ts')).toContain("export const reasonReconciling = 'Reconciling';\n/** The object is being deleted and its finalizer operations run. */\nexport const reasonFinalizing = 'Finalizing';");
      expect(read(project.root, 'internal/controller/index.ts')).toContain("import { setupMemcachedController } from './memcached_controller.js';");
    });

    it('the generated role grants what the markers say', () => {
      const role = parse(read(project.root, 'config/rbac/role.yaml')) as { rules: Rule[] };
      const grants = role.rules.flatMap((r) => r.resources.map((res) => `${r.apiGroups[0] || 'core'}/${res}: ${r.verbs.join(',')}`));
      expect(grants).toEqual([
        'core/pods: get,list,watch',
        'apps/deployments: create,delete,get,list,patch,update,watch',
        'cache.example.com/memcacheds: create,delete,get,list,patch,update,watch',
        'cache.example.com/memcacheds/finalizers: update',
        'cache.example.com/memcacheds/status: get,patch,update',
        'events.k8s.io/events: create,patch',
      ]);
    });

    it('sample with size and containerPort; the image in the manager container\'s env; the options in PROJECT', () => {
      expect(parse(read(project.root, 'config/samples/cache_v1alpha1_memcached.yaml')).spec).toEqual({ size: 1, containerPort: 11211 });
      const manager = parseAllDocuments(read(project.root, 'config/manager/manager.yaml')).map((d) => d.toJS()).find((o) => o.kind === 'Deployment');
      expect(manager.spec.template.spec.containers[0]).toMatchObject({ name: 'manager', env: [{ name: 'MEMCACHED_IMAGE', value: 'memcached:1.6.26-alpine' }] });
      expect(read(project.root, 'config/manager/manager.yaml')).toContain('        name: manager\n        env:\n        - name: MEMCACHED_IMAGE\n          value: memcached:1.6.26-alpine\n');
      const projectFile = parse(read(project.root, 'PROJECT'));
      expect(projectFile.plugins).toEqual({
        'deploy-image.go.kubebuilder.io/v1-alpha': {
          resources: [
            {
              domain: 'example.com',
              group: 'cache',
              kind: 'Memcached',
              options: { containerCommand: 'memcached,--memory-limit=64,-o,modern,-v', containerPort: '11211', image: 'memcached:1.6.26-alpine', runAsUser: '1001' },
              version: 'v1alpha1',
            },
          ],
        },
      });
      expect(projectFile.resources).toEqual([{ api: { crdVersion: 'v1', namespaced: true }, controller: true, domain: 'example.com', group: 'cache', kind: 'Memcached', path: 'memcached-operator/api/v1alpha1', version: 'v1alpha1' }]);
    });

    it('a second kind with the plugin adds its own variable to the same env list and shares conditions.ts', async () => {
      const second = await createApi(project.root, { group: 'cache', version: 'v1alpha1', kind: 'Busybox', plugins: 'deploy-image/v1-alpha', image: 'busybox:1.36.1', make: false });
      expect(second).toMatchObject({ code: 0, err: '' });
      expect(second.out).not.toContain('conditions.ts');
      expect(read(project.root, 'config/manager/manager.yaml')).toContain('        env:\n        - name: BUSYBOX_IMAGE\n          value: busybox:1.36.1\n        - name: MEMCACHED_IMAGE\n          value: memcached:1.6.26-alpine\n');
      expect(parse(read(project.root, 'PROJECT')).plugins['deploy-image.go.kubebuilder.io/v1-alpha'].resources.map((r: { kind: string }) => r.kind)).toEqual(['Memcached', 'Busybox']);
    });
  });

  it('without the optional flags: no containerPort, no command, no runAsUser', async () => {
    const project = tempProject('plain');
    try {
      expect(init(project.root).code).toBe(0);
      expect((await createApi(project.root, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', plugins: 'deploy-image/v1-alpha', image: 'memcached:1.6.26-alpine', make: false })).code).toBe(0);
      const controller = read(project.root, 'internal/controller/memcached_controller.ts');
      expect(controller).not.toContain('ports:');
      expect(controller).not.toContain('command:');
      expect(controller).not.toContain('runAsUser');
      expect(controller).toContain('runAsNonRoot: true,\n                  allowPrivilegeEscalation: false,');
      expect(read(project.root, 'api/v1alpha1/memcached_types.ts')).not.toContain('containerPort');
      expect(parse(read(project.root, 'config/samples/cache_v1alpha1_memcached.yaml')).spec).toEqual({ size: 1 });
      expect(parse(read(project.root, 'PROJECT')).plugins['deploy-image.go.kubebuilder.io/v1-alpha'].resources[0].options).toEqual({ image: 'memcached:1.6.26-alpine' });
    } finally {
      project.remove();
    }
  });

  it('--manifests=false (kubebuilder\'s flag of the plugin) runs generate only', async () => {
    const project = tempProject('no-manifests');
    try {
      expect(init(project.root).code).toBe(0);
      const result = await createApi(project.root, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', plugins: 'deploy-image/v1-alpha', image: 'memcached:1.6.26-alpine', manifests: false });
      expect(result).toMatchObject({ code: 0, err: '' });
      expect(result.out).toContain('wrote api/v1alpha1/zz_generated.deepcopy.ts');
      expect(existsSync(join(project.root, 'config/crd/bases/cache.example.com_memcacheds.yaml'))).toBe(false);
    } finally {
      project.remove();
    }
  });

  it('through the command-line parser, with kubebuilder\'s flag spellings', async () => {
    const project = tempProject('cli-memcached');
    let out = '';
    let err = '';
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
    const previous = process.exitCode;
    try {
      expect(init(project.root).code).toBe(0);
      const code = await main([
        'node', 'kubeforge', 'create', 'api', '--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached', '--plugins', 'deploy-image/v1-alpha',
        '--image=memcached:1.6.26-alpine', '--image-container-command', 'memcached,--memory-limit=64,-o,modern,-v', '--image-container-port=11211', '--run-as-user', '1001',
        '--make=false', '--root', project.root,
      ]);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      expect(out).toContain('create internal/controller/memcached_controller.ts');
      expect(read(project.root, 'internal/controller/memcached_controller.ts')).toContain('runAsUser: 1001,');
      expect(existsSync(join(project.root, 'config/crd/bases/cache.example.com_memcacheds.yaml'))).toBe(false);
    } finally {
      process.exitCode = previous;
      stdout.mockRestore();
      stderr.mockRestore();
      project.remove();
    }
  });

  describe('bad flags change nothing', () => {
    const project = tempProject('guard');
    let root = '';

    beforeAll(() => {
      root = project.root;
      expect(init(root).code).toBe(0);
    });
    afterAll(() => project.remove());

    const plugin = { group: 'cache', version: 'v1alpha1', kind: 'Memcached', plugins: 'deploy-image/v1-alpha', image: 'memcached:1.6.26-alpine', make: false };

    it.each([
      ['no --image', { image: undefined }, '--image "": required with --plugins deploy-image/v1-alpha: the image the controller deploys and manages (e.g. memcached:1.6.26-alpine)'],
      ['an image with spaces', { image: 'memcached 1.6' }, '--image "memcached 1.6": must be a container image reference such as memcached:1.6.26-alpine or registry.example.com/team/image:1.0'],
      ['an upper-case image', { image: 'Memcached:1.6' }, '--image "Memcached:1.6": must be a container image reference such as memcached:1.6.26-alpine or registry.example.com/team/image:1.0'],
      ['port 0', { imageContainerPort: '0' }, '--image-container-port "0": must be a port number from 1 to 65535'],
      ['port 70000', { imageContainerPort: '70000' }, '--image-container-port "70000": must be a port number from 1 to 65535'],
      ['a named port', { imageContainerPort: 'memcache' }, '--image-container-port "memcache": must be a port number from 1 to 65535'],
      ['a negative user', { runAsUser: '-1' }, '--run-as-user "-1": must be a user ID: a whole number from 0 to 2147483647'],
      ['a user name', { runAsUser: 'memcache' }, '--run-as-user "memcache": must be a user ID: a whole number from 0 to 2147483647'],
      ['a user above int32', { runAsUser: '2147483648' }, '--run-as-user "2147483648": must be a user ID: a whole number from 0 to 2147483647'],
      ['an empty command part', { imageContainerCommand: 'memcached,,-v' }, '--image-container-command "memcached,,-v": has an empty part: the command is comma-separated, e.g. "memcached,--memory-limit=64,-o,modern,-v"'],
      ['an unknown plugin', { plugins: 'deploy-image/v2' }, '--plugins "deploy-image/v2": unknown plugin "deploy-image/v2"; the plugins of create api are: deploy-image/v1-alpha'],
      ['an empty --plugins', { plugins: '' }, '--plugins "": name a plugin: deploy-image/v1-alpha'],
      ['--image without the plugin', { plugins: undefined }, '--image "memcached:1.6.26-alpine": only with --plugins deploy-image/v1-alpha (the flag belongs to that plugin)'],
      ['--run-as-user without the plugin', { plugins: undefined, image: undefined, runAsUser: '1001' }, '--run-as-user "1001": only with --plugins deploy-image/v1-alpha (the flag belongs to that plugin)'],
      ['a cluster-scoped kind', { namespaced: false }, '--namespaced "false": the deploy-image/v1-alpha plugin deploys the image into the namespace of each object, so its kind must be namespaced'],
      ['--controller=false', { controller: false }, '--controller "false": the deploy-image/v1-alpha plugin always scaffolds the controller (it deploys the image)'],
      ['--resource=false', { resource: false }, '--resource "false": the deploy-image/v1-alpha plugin always scaffolds the API types (they hold the size of the Deployment)'],
    ])('refuses %s', async (_name, flags, message) => {
      const before = treeHash(root);
      const result = await createApi(root, { ...plugin, ...flags });
      expect({ code: result.code, err: result.err }).toEqual({ code: 1, err: `kubeforge create api: ${message}` });
      expect(result.out).toBe('');
      expect(treeHash(root)).toBe(before);
    });

    it('refuses when config/manager/manager.yaml has no manager container, naming the file', async () => {
      const manager = read(root, 'config/manager/manager.yaml');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(root, 'config/manager/manager.yaml'), manager.replace('        name: manager\n', '        name: operator\n'));
      const before = treeHash(root);
      const result = await createApi(root, plugin);
      expect(result.code).toBe(1);
      expect(result.err).toBe('kubeforge create api: nothing was written:\n  config/manager/manager.yaml: no manager container (a "name: manager" line) to give the MEMCACHED_IMAGE environment variable');
      expect(treeHash(root)).toBe(before);
      writeFileSync(join(root, 'config/manager/manager.yaml'), manager);
    });
  });
});
