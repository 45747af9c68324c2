/**
 * Volumes of pods run as real processes: Secret, ConfigMap (items, subPath) and emptyDir volumes are
 * written into the pod's folder and the process reads them at their mount paths — through `fs` and
 * `fs/promises`, from CommonJS and from ES modules — and the ServiceAccount token at its usual path; a
 * Secret volume whose Secret does not exist keeps the pod ContainerCreating with a FailedMount event
 * until the Secret is created (how a manager waits for cert-manager's webhook-server-cert).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useClusterSuite } from './cluster-suite.js';

const imageDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'process-image');
const suite = useClusterSuite({ images: { 'example.com/hello:v1': imageDir } });
const kubectl = suite.kubectl;

const until = suite.until.bind(suite);
const logsOf = (name: string) => async (): Promise<string | undefined> => {
  const r = await kubectl.run(['logs', name]);
  return r.code === 0 && r.stdout.includes('done') ? r.stdout : undefined;
};

const reader = `
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
const cjsFs = createRequire(import.meta.url)('fs');
console.log('certs: ' + readdirSync('/tmp/k8s-webhook-server/serving-certs').sort().join(','));
console.log('tls.crt: ' + readFileSync('/tmp/k8s-webhook-server/serving-certs/tls.crt', 'utf8'));
console.log('promises: ' + (await readFile('/tmp/k8s-webhook-server/serving-certs/tls.key', 'utf8')));
console.log('colour: ' + cjsFs.readFileSync('/etc/config/colour.txt', 'utf8'));
console.log('one file: ' + readFileSync('/etc/app.conf', 'utf8'));
console.log('scratch exists: ' + existsSync('/scratch'));
console.log('namespace: ' + readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8'));
console.log('elsewhere untouched: ' + existsSync('/tmp/k8s-webhook-server-other'));
console.log('done');
`;

test('Secret, ConfigMap and emptyDir volumes are read at their mount paths; a missing Secret holds the pod in ContainerCreating (FailedMount) until it exists', async () => {
  await kubectl.ok(['create', 'configmap', 'settings', '--from-literal=favourite=teal', '--from-literal=conf=level=debug']);
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'mounts' },
    spec: {
      restartPolicy: 'Never',
      containers: [{
        name: 'app',
        image: 'example.com/hello:v1',
        command: ['node', '--input-type=module', '-e', reader],
        volumeMounts: [
          { name: 'certs', mountPath: '/tmp/k8s-webhook-server/serving-certs', readOnly: true },
          { name: 'config', mountPath: '/etc/config' },
          { name: 'conf', mountPath: '/etc/app.conf', subPath: 'conf' },
          { name: 'scratch', mountPath: '/scratch' },
        ],
      }],
      volumes: [
        { name: 'certs', secret: { secretName: 'webhook-server-cert' } },
        { name: 'config', configMap: { name: 'settings', items: [{ key: 'favourite', path: 'colour.txt' }] } },
        { name: 'conf', configMap: { name: 'settings' } },
        { name: 'scratch', emptyDir: {} },
      ],
    },
  }));
  await suite.cluster.settle();
  const waiting = JSON.parse(await kubectl.ok(['get', 'pod', 'mounts', '-o', 'json']));
  expect(waiting.status.containerStatuses[0].state.waiting.reason).toBe('ContainerCreating');
  expect(await kubectl.ok(['describe', 'pod', 'mounts'])).toMatch(/Warning\s+FailedMount\s+.*kubelet\s+MountVolume\.SetUp failed for volume "certs" : secret "webhook-server-cert" not found/);

  await kubectl.ok(['create', 'secret', 'generic', 'webhook-server-cert', '--from-literal=tls.crt=CERT', '--from-literal=tls.key=KEY']);
  await suite.cluster.clock.advance(2_000);
  const logs = await until('the reads', logsOf('mounts'));
  expect(logs).toBe(
    ['certs: tls.crt,tls.key', 'tls.crt: CERT', 'promises: KEY', 'colour: teal', 'one file: level=debug', 'scratch exists: true', 'namespace: default', 'elsewhere untouched: false', 'done', ''].join('\n'),
  );
});
