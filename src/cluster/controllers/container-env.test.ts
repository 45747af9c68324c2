/** The environment and argv the kubelet gives a container process, and its CreateContainerConfigError texts. */
import { ContainerConfigError, containerArgv, containerEnvironment, expandReferences } from './container-env.js';
import type { LocalImage } from './local-images.js';

const pod = {
  metadata: { name: 'op-1', namespace: 'team', uid: 'u-1', labels: { app: 'op' }, annotations: { note: 'hi' } },
  spec: { nodeName: 'kubeforge-control-plane', serviceAccountName: 'op' },
  status: { podIP: '127.244.0.2', podIPs: [{ ip: '127.244.0.2' }], hostIP: '172.18.0.2' },
};
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const objects: Record<string, any> = {
  'secret/creds': { data: { user: b64('admin'), pass: b64('pw') } },
  'configmap/settings': { data: { level: 'debug', mode: 'fast' } },
};
const sources = { secret: (_ns: string, n: string) => objects[`secret/${n}`], configMap: (_ns: string, n: string) => objects[`configmap/${n}`] };

test('values, $(VAR) references, downward-API fields, resources, Secret and ConfigMap keys, envFrom with prefixes', () => {
  const container = {
    name: 'app',
    resources: { limits: { cpu: '500m', memory: '256Mi' } },
    envFrom: [{ configMapRef: { name: 'settings' }, prefix: 'CFG_' }, { secretRef: { name: 'creds' } }],
    env: [
      { name: 'NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'GREETING', value: 'hello $(NAME) from $(MISSING), $$(NAME)' },
      { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
      { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
      { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      { name: 'PASS', valueFrom: { secretKeyRef: { name: 'creds', key: 'pass' } } },
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } },
      { name: 'OPTIONAL', valueFrom: { configMapKeyRef: { name: 'absent', key: 'x', optional: true } } },
    ],
  };
  expect(containerEnvironment(pod, container, sources)).toEqual({
    CFG_level: 'debug',
    CFG_mode: 'fast',
    user: 'admin',
    pass: 'pw',
    NAME: 'op-1',
    GREETING: 'hello op-1 from $(MISSING), $(NAME)',
    APP: 'op',
    IP: '127.244.0.2',
    NODE: 'kubeforge-control-plane',
    CPU: '500',
    MEM: '256',
    PASS: 'pw',
    LEVEL: 'debug',
  });
});

test.each([
  [{ secretKeyRef: { name: 'absent', key: 'k' } }, 'secret "absent" not found'],
  [{ secretKeyRef: { name: 'creds', key: 'token' } }, "couldn't find key token in Secret team/creds"],
  [{ configMapKeyRef: { name: 'absent', key: 'k' } }, 'configmap "absent" not found'],
  [{ configMapKeyRef: { name: 'settings', key: 'size' } }, "couldn't find key size in ConfigMap team/settings"],
])('an unresolvable %j is a CreateContainerConfigError: %s', (valueFrom, message) => {
  const run = () => containerEnvironment(pod, { name: 'app', env: [{ name: 'X', valueFrom }] }, sources);
  expect(run).toThrow(ContainerConfigError);
  expect(run).toThrow(message);
});

test('argv: command replaces ENTRYPOINT and CMD, args replace CMD only, references expanded', () => {
  const image = { entrypoint: ['node', 'dist/cmd/main.js'], cmd: ['--default'] } as LocalImage;
  const env = { PORT: '9443' };
  expect(containerArgv({}, image, env)).toEqual(['node', 'dist/cmd/main.js', '--default']);
  expect(containerArgv({ args: ['--port=$(PORT)'] }, image, env)).toEqual(['node', 'dist/cmd/main.js', '--port=9443']);
  expect(containerArgv({ command: ['node', 'other.js'] }, image, env)).toEqual(['node', 'other.js']);
  expect(containerArgv({ command: ['sh', '-c'], args: ['echo $(PORT)'] }, image, env)).toEqual(['sh', '-c', 'echo 9443']);
  expect(expandReferences('$$$(PORT)', env)).toBe('$9443');
});
