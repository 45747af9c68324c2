import { checkDeployImageFlags, withImageEnv } from './deploy-image-plan.js';
import { DEPLOY_IMAGE_PLUGIN, resolvePlugins } from './plugins.js';

const manager = ['      containers:', '      - args:', '          - --leader-elect', '        image: controller:latest', '        name: manager', '        ports: []', ''].join('\n');

describe('the deploy-image plugin', () => {
  it('accepts the short and the full plugin key, and the base layout key, once each', () => {
    expect(resolvePlugins('deploy-image/v1-alpha', {})).toEqual([DEPLOY_IMAGE_PLUGIN]);
    expect(resolvePlugins(`kubeforge.io/ts/v1,${DEPLOY_IMAGE_PLUGIN},deploy-image/v1-alpha`, {})).toEqual([DEPLOY_IMAGE_PLUGIN]);
    expect(resolvePlugins(undefined, {})).toEqual([]);
  });

  it('splits and trims the command; keeps the flags as given for PROJECT', () => {
    const flags = { image: 'registry.example.com:5000/team/memcached:1.6@sha256:' + 'a'.repeat(64), imageContainerCommand: 'memcached, -v', imageContainerPort: '11211', runAsUser: '0' };
    expect(checkDeployImageFlags(flags, {})).toEqual({ image: flags.image, command: ['memcached', '-v'], port: 11211, runAsUser: 0, given: flags });
  });

  it('puts the variable in a new env list after `name: manager`, then adds to it, and replaces its own value', () => {
    const once = withImageEnv(manager, 'MEMCACHED_IMAGE', 'memcached:1.6.26-alpine')!;
    expect(once).toContain('        name: manager\n        env:\n        - name: MEMCACHED_IMAGE\n          value: memcached:1.6.26-alpine\n        ports: []');
    const twice = withImageEnv(once, 'BUSYBOX_IMAGE', 'busybox:1.36.1')!;
    expect(twice).toContain('        env:\n        - name: BUSYBOX_IMAGE\n          value: busybox:1.36.1\n        - name: MEMCACHED_IMAGE\n');
    const replaced = withImageEnv(twice, 'MEMCACHED_IMAGE', 'memcached:1.6.27')!;
    expect(replaced).toContain('        - name: MEMCACHED_IMAGE\n          value: memcached:1.6.27\n');
    expect(replaced.match(/MEMCACHED_IMAGE/g)).toHaveLength(1);
    expect(withImageEnv(manager.replace('name: manager', 'name: operator'), 'MEMCACHED_IMAGE', 'x')).toBeUndefined();
  });
});
