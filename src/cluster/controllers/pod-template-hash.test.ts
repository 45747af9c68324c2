/**
 * pod-template-hash as kube-controller-manager 1.32 computes it. The expected names are what real 1.32-era
 * clusters show for the same templates (found in public material): `kubectl create deployment nginx
 * --image=nginx` makes ReplicaSet nginx-5869d7778c, and the Kubernetes docs' nginx-deployment
 * (nginx:1.14.2, containerPort 80) makes nginx-deployment-647677fc66 (the docs page itself still shows
 * 66b6c48dd5, printed by an older release whose PodSpec had fewer fields).
 */
import { expect, test } from '@jest/globals';
import { jobs } from '../registry/builtin/batch-kinds.js';
import { deployments } from '../registry/builtin/apps-kinds.js';
import { computeHash, fnv32a, safeEncodeString } from './pod-template-hash.js';
import { spewPodTemplate } from './go-spew-template.js';

/** The template as the API server stores it: the Deployment's defaulting applied. */
function storedTemplate(template: Record<string, any>): Record<string, any> {
  const d: any = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { selector: { matchLabels: {} }, template } };
  deployments.strategy.prepareForCreate!(d, { now: 0, uid: () => 'u' });
  return d.spec.template;
}

test('kubectl create deployment nginx --image=nginx hashes to 5869d7778c, as on a 1.32 cluster', () => {
  // what `kubectl create deployment` sends: labels app=nginx, one container with `resources: {}`
  const template = storedTemplate({ metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } });
  expect(computeHash(template)).toBe('5869d7778c');
});

test("the docs' nginx-deployment (nginx:1.14.2, port 80) hashes to 647677fc66", () => {
  const template = storedTemplate({ metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } });
  expect(computeHash(template)).toBe('647677fc66');
});

test('the collision count changes the hash; SafeEncodeString maps decimal digits', () => {
  const template = storedTemplate({ metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } });
  const plain = computeHash(template);
  expect(computeHash(template, 1)).not.toBe(plain);
  expect(computeHash(template, 1)).toBe(computeHash(template, 1));
  expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  // FNV-1a 32 test vectors
  expect(fnv32a(Buffer.from(''))).toBe(0x811c9dc5);
  expect(fnv32a(Buffer.from('a'))).toBe(0xe40c292c);
  expect(fnv32a(Buffer.from('foobar'))).toBe(0xbf9cf968);
});

test('spew prints the Go value: field order and type names from 1.32, nil lists and maps, quantities parsed', () => {
  const template = storedTemplate({
    metadata: { labels: { b: '2', a: '1' } },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: [], resources: { limits: { memory: '64Mi', cpu: '0.5' }, requests: { memory: '1Gi' } }, livenessProbe: { httpGet: { port: 8080, path: '/' } } }] },
  });
  const text = spewPodTemplate(template);
  expect(text.startsWith('(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) Namespace:(string)')).toBe(true);
  expect(text).toContain('Labels:(map[string]string)map[a:1 b:2] Annotations:(map[string]string)<nil>');
  expect(text).toContain('Command:([]string)<nil>');
  // 0.5 is stored as 500m (kept as text); 64Mi keeps no text (64&7 == 0); 1Gi does
  expect(text).toContain(
    'Limits:(v1.ResourceList)map[cpu:{i:(resource.int64Amount){value:(int64)500 scale:(resource.Scale)-3} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)500m Format:(resource.Format)DecimalSI} ' +
      'memory:{i:(resource.int64Amount){value:(int64)67108864 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string) Format:(resource.Format)BinarySI}]',
  );
  expect(text).toContain('Requests:(v1.ResourceList)map[memory:{i:(resource.int64Amount){value:(int64)1073741824 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)1Gi Format:(resource.Format)BinarySI}]');
  expect(text).toContain('LivenessProbe:(*v1.Probe){ProbeHandler:(v1.ProbeHandler){Exec:(*v1.ExecAction)<nil> HTTPGet:(*v1.HTTPGetAction){Path:(string)/ Port:(intstr.IntOrString){Type:(intstr.Type)0 IntVal:(int32)8080 StrVal:(string)} Host:(string) Scheme:(v1.URIScheme)');
  expect(text).toContain('TerminationGracePeriodSeconds:(*int64)30');
  expect(text).toContain('SecurityContext:(*v1.PodSecurityContext){SELinuxOptions:(*v1.SELinuxOptions)<nil>');
});

test('Job templates are defaulted as templates, without pod-only defaults', () => {
  const job: any = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', uid: 'u' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
  jobs.strategy.prepareForCreate!(job, { now: 0, uid: () => 'u' });
  expect(job.spec.template.spec.serviceAccountName).toBeUndefined();
  expect(job.spec.template.spec.enableServiceLinks).toBeUndefined();
  expect(job.spec.template.spec).toMatchObject({ dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30, securityContext: {} });
});
