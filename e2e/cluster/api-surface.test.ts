/**
 * The API surface of a default 1.32 control plane, through real kubectl: `api-resources` (and `-o wide`)
 * lists exactly kind 1.32's resources, discovery carries the subresources, `explain` reads every new
 * kind, the generic kinds round-trip (including kubectl's protobuf create bodies), HPAs are served as
 * autoscaling/v2 and v1, CSRs are approved and signed by the cluster CA, and the objects a real server
 * bootstraps (APIServices, FlowSchemas, PriorityClasses, componentstatuses) are there.
 */
import 'reflect-metadata';
import { X509Certificate, type webcrypto } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as x509 from '@peculiar/x509';
import '../../src/certificates/self-signed.js';
import { Kubectl } from './kubectl-runner.js';
import { useClusterSuite } from './cluster-suite.js';

// The cluster clock starts at the wall clock here: certificates it signs must pass TLS checks, which read the wall clock.
const suite = useClusterSuite({ settled: true, now: Math.floor(Date.now() / 1000) * 1000 });
const kubectl = suite.kubectl;

const all8 = 'create,delete,deletecollection,get,list,patch,update,watch';
/** `kubectl api-resources -o wide` of a kind 1.32 cluster: name, short names, apiVersion, namespaced, kind, verbs, categories. */
const expectedWide = `
bindings||v1|true|Binding|create|
componentstatuses|cs|v1|false|ComponentStatus|get,list|
configmaps|cm|v1|true|ConfigMap|${all8}|
endpoints|ep|v1|true|Endpoints|${all8}|
events|ev|v1|true|Event|${all8}|
limitranges|limits|v1|true|LimitRange|${all8}|
namespaces|ns|v1|false|Namespace|create,delete,get,list,patch,update,watch|
nodes|no|v1|false|Node|${all8}|
persistentvolumeclaims|pvc|v1|true|PersistentVolumeClaim|${all8}|
persistentvolumes|pv|v1|false|PersistentVolume|${all8}|
pods|po|v1|true|Pod|${all8}|all
podtemplates||v1|true|PodTemplate|${all8}|
replicationcontrollers|rc|v1|true|ReplicationController|${all8}|all
resourcequotas|quota|v1|true|ResourceQuota|${all8}|
secrets||v1|true|Secret|${all8}|
serviceaccounts|sa|v1|true|ServiceAccount|${all8}|
services|svc|v1|true|Service|${all8}|all
mutatingwebhookconfigurations||admissionregistration.k8s.io/v1|false|MutatingWebhookConfiguration|${all8}|api-extensions
validatingadmissionpolicies||admissionregistration.k8s.io/v1|false|ValidatingAdmissionPolicy|${all8}|api-extensions
validatingadmissionpolicybindings||admissionregistration.k8s.io/v1|false|ValidatingAdmissionPolicyBinding|${all8}|api-extensions
validatingwebhookconfigurations||admissionregistration.k8s.io/v1|false|ValidatingWebhookConfiguration|${all8}|api-extensions
customresourcedefinitions|crd,crds|apiextensions.k8s.io/v1|false|CustomResourceDefinition|${all8}|api-extensions
apiservices||apiregistration.k8s.io/v1|false|APIService|${all8}|api-extensions
controllerrevisions||apps/v1|true|ControllerRevision|${all8}|
daemonsets|ds|apps/v1|true|DaemonSet|${all8}|all
deployments|deploy|apps/v1|true|Deployment|${all8}|all
replicasets|rs|apps/v1|true|ReplicaSet|${all8}|all
statefulsets|sts|apps/v1|true|StatefulSet|${all8}|all
selfsubjectreviews||authentication.k8s.io/v1|false|SelfSubjectReview|create|
tokenreviews||authentication.k8s.io/v1|false|TokenReview|create|
localsubjectaccessreviews||authorization.k8s.io/v1|true|LocalSubjectAccessReview|create|
selfsubjectaccessreviews||authorization.k8s.io/v1|false|SelfSubjectAccessReview|create|
selfsubjectrulesreviews||authorization.k8s.io/v1|false|SelfSubjectRulesReview|create|
subjectaccessreviews||authorization.k8s.io/v1|false|SubjectAccessReview|create|
horizontalpodautoscalers|hpa|autoscaling/v2|true|HorizontalPodAutoscaler|${all8}|all
cronjobs|cj|batch/v1|true|CronJob|${all8}|all
jobs||batch/v1|true|Job|${all8}|all
certificatesigningrequests|csr|certificates.k8s.io/v1|false|CertificateSigningRequest|${all8}|
leases||coordination.k8s.io/v1|true|Lease|${all8}|
endpointslices||discovery.k8s.io/v1|true|EndpointSlice|${all8}|
events|ev|events.k8s.io/v1|true|Event|${all8}|
flowschemas||flowcontrol.apiserver.k8s.io/v1|false|FlowSchema|${all8}|
prioritylevelconfigurations||flowcontrol.apiserver.k8s.io/v1|false|PriorityLevelConfiguration|${all8}|
ingressclasses||networking.k8s.io/v1|false|IngressClass|${all8}|
ingresses|ing|networking.k8s.io/v1|true|Ingress|${all8}|
networkpolicies|netpol|networking.k8s.io/v1|true|NetworkPolicy|${all8}|
runtimeclasses||node.k8s.io/v1|false|RuntimeClass|${all8}|
poddisruptionbudgets|pdb|policy/v1|true|PodDisruptionBudget|${all8}|
clusterrolebindings||rbac.authorization.k8s.io/v1|false|ClusterRoleBinding|${all8}|
clusterroles||rbac.authorization.k8s.io/v1|false|ClusterRole|${all8}|
rolebindings||rbac.authorization.k8s.io/v1|true|RoleBinding|${all8}|
roles||rbac.authorization.k8s.io/v1|true|Role|${all8}|
priorityclasses|pc|scheduling.k8s.io/v1|false|PriorityClass|${all8}|
csidrivers||storage.k8s.io/v1|false|CSIDriver|${all8}|
csinodes||storage.k8s.io/v1|false|CSINode|${all8}|
csistoragecapacities||storage.k8s.io/v1|true|CSIStorageCapacity|${all8}|
storageclasses|sc|storage.k8s.io/v1|false|StorageClass|${all8}|
volumeattachments||storage.k8s.io/v1|false|VolumeAttachment|${all8}|
`.trim().split('\n');

/** A kubectl table as rows of cells, cut at the header's column starts (cells may be empty). */
function cells(table: string): string[][] {
  const [header, ...lines] = table.trimEnd().split('\n');
  const starts = [...header!.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index!);
  return lines.map((line) => starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim()));
}

describe('kubectl api-resources', () => {
  test('lists exactly the 58 resources of a kind 1.32 cluster, in its order', async () => {
    const rows = cells(await kubectl.ok(['api-resources', '-o', 'wide'])).map((r) => r.join('|'));
    expect(expectedWide).toHaveLength(58);
    expect(rows).toEqual(expectedWide);
  });

  test('the narrow form and api-versions agree (autoscaling v2 preferred, v1 served)', async () => {
    const narrow = cells(await kubectl.ok(['api-resources'])).map((r) => r.join('|'));
    expect(narrow).toEqual(expectedWide.map((row) => row.split('|').slice(0, 5).join('|')));
    const versions = (await kubectl.ok(['api-versions'])).trim().split('\n');
    expect(versions).toEqual(expect.arrayContaining(['autoscaling/v1', 'autoscaling/v2', 'flowcontrol.apiserver.k8s.io/v1', 'apiregistration.k8s.io/v1', 'v1']));
    expect(versions).toHaveLength(21);
  });

  test('--api-group, --namespaced and categories select as on kind', async () => {
    const storage = cells(await kubectl.ok(['api-resources', '--api-group=storage.k8s.io'])).map((r) => r[0]);
    expect(storage).toEqual(['csidrivers', 'csinodes', 'csistoragecapacities', 'storageclasses', 'volumeattachments']);
    const extensions = cells(await kubectl.ok(['api-resources', '--categories=api-extensions'])).map((r) => r[0]);
    expect(extensions).toEqual(['mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'validatingwebhookconfigurations', 'customresourcedefinitions', 'apiservices']);
  });
});

describe('discovery', () => {
  const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

  test('aggregated discovery carries subresources with their kinds and verbs', async () => {
    const core = JSON.parse((await suite.call('GET', '/api', undefined, { Accept: aggregated })).text);
    const pods = core.items[0].versions[0].resources.find((r: any) => r.resource === 'pods');
    expect(pods.subresources.map((s: any) => s.subresource)).toEqual(['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'status']);
    expect(pods.subresources.find((s: any) => s.subresource === 'eviction')).toEqual({ subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] });
    const rc = core.items[0].versions[0].resources.find((r: any) => r.resource === 'replicationcontrollers');
    expect(rc.subresources.map((s: any) => s.subresource)).toEqual(['scale', 'status']);
    const groups = JSON.parse((await suite.call('GET', '/apis', undefined, { Accept: aggregated })).text);
    expect(groups.items.map((g: any) => g.metadata.name).slice(0, 4)).toEqual(['apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io']);
    const autoscaling = groups.items.find((g: any) => g.metadata.name === 'autoscaling');
    expect(autoscaling.versions.map((v: any) => v.version)).toEqual(['v2', 'v1']);
    const certificates = groups.items.find((g: any) => g.metadata.name === 'certificates.k8s.io');
    const csr = certificates.versions[0].resources[0];
    expect(csr.subresources).toEqual([
      { subresource: 'approval', responseKind: { group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest' }, verbs: ['get', 'patch', 'update'] },
    ]);
  });

  test('legacy discovery lists subresources with the group of their kind', async () => {
    const list = JSON.parse((await suite.call('GET', '/api/v1')).text);
    const names = list.resources.map((r: any) => r.name);
    for (const sub of ['pods/log', 'pods/eviction', 'pods/binding', 'pods/exec', 'serviceaccounts/token', 'namespaces/finalize', 'nodes/proxy', 'services/proxy', 'replicationcontrollers/scale']) {
      expect(names).toContain(sub);
    }
    expect(list.resources.find((r: any) => r.name === 'pods/eviction')).toMatchObject({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    const group = JSON.parse((await suite.call('GET', '/apis/autoscaling')).text);
    expect(group.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' });
  });
});

describe('kubectl explain on the new kinds', () => {
  test.each([
    ['ingresses.spec.rules', 'KIND:       Ingress', 'http\t<HTTPIngressRuleValue>'],
    ['networkpolicies.spec', 'KIND:       NetworkPolicy', 'podSelector\t<LabelSelector>'],
    ['hpa.spec', 'VERSION:    v2', 'metrics\t<[]MetricSpec>'],
    ['csr.spec', 'KIND:       CertificateSigningRequest', 'signerName\t<string> -required-'],
    ['apiservices.spec', 'KIND:       APIService', 'groupPriorityMinimum\t<integer> -required-'],
    ['flowschemas.spec', 'KIND:       FlowSchema', 'priorityLevelConfiguration\t<PriorityLevelConfigurationReference> -required-'],
    ['priorityclasses', 'KIND:       PriorityClass', 'preemptionPolicy\t<string>'],
    ['csidrivers.spec', 'KIND:       CSIDriver', 'attachRequired\t<boolean>'],
    ['deployments.spec', 'KIND:       Deployment', 'Label selector for pods. Existing ReplicaSets whose pods are selected by'],
  ])('explain %s', async (path, kind, field) => {
    const out = await kubectl.ok(['explain', path]);
    expect(out).toContain(kind);
    expect(out).toContain(field);
  });

  test('explain --api-version=autoscaling/v1 shows the v1 HPA', async () => {
    const out = await kubectl.ok(['explain', 'hpa.spec', '--api-version=autoscaling/v1']);
    expect(out).toContain('VERSION:    v1');
    expect(out).toContain('targetCPUUtilizationPercentage\t<integer>');
  });
});

describe('generic kinds round-trip', () => {
  test('kubectl create ingress (a protobuf body) stores, prints and deletes an Ingress', async () => {
    await kubectl.ok(['create', 'ingress', 'web', '--class=nginx', '--rule=foo.example.com/api*=api:8080', '--rule=bar.example.com/=ui:80,tls=ui-cert']);
    const got = await suite.getJson(['get', 'ingress', 'web']);
    expect(got.spec.rules[0]).toEqual({ host: 'foo.example.com', http: { paths: [{ path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 8080 } } } }] } });
    expect(got.spec.tls).toEqual([{ hosts: ['bar.example.com'], secretName: 'ui-cert' }]);
    expect(got.status).toEqual({ loadBalancer: {} });
    expect(got.metadata.generation).toBe(1);
    const table = cells(await kubectl.ok(['get', 'ing']));
    expect(table).toEqual([['web', 'nginx', 'foo.example.com,bar.example.com', '', '80, 443', expect.stringMatching(/s$/)]]);
    expect(await kubectl.ok(['delete', 'ingress', 'web'])).toContain('ingress.networking.k8s.io "web" deleted');
    expect((await kubectl.run(['get', 'ingress', 'web'])).stderr).toContain('ingresses.networking.k8s.io "web" not found');
  });

  test('a missing pathType is refused with the field path', async () => {
    const bad = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'bad' }, spec: { rules: [{ http: { paths: [{ path: '/', backend: { service: { name: 's', port: { number: 80 } } } }] } }] } };
    const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(bad));
    expect(r.stderr).toContain('The Ingress "bad" is invalid: spec.rules[0].http.paths[0].pathType: Required value');
    const relative = structuredClone(bad);
    Object.assign(relative.spec.rules[0]!.http.paths[0]!, { path: 'api', pathType: 'Prefix' });
    expect((await kubectl.run(['create', '-f', '-'], JSON.stringify(relative))).stderr).toContain('spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path');
  });

  test('kubectl create priorityclass stores the class with its default preemption policy', async () => {
    await kubectl.ok(['create', 'priorityclass', 'high', '--value=1000', '--description=high priority']);
    const got = await suite.getJson(['get', 'pc', 'high']);
    expect(got).toMatchObject({ value: 1000, description: 'high priority', preemptionPolicy: 'PreemptLowerPriority' });
    expect(got.globalDefault).toBeUndefined();
    const rows = cells(await kubectl.ok(['get', 'priorityclasses']));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([['high', '1000', 'false'], ['system-cluster-critical', '2000000000', 'false'], ['system-node-critical', '2000001000', 'false']]);
    const changed = await kubectl.run(['patch', 'pc', 'high', '--type=merge', '-p', '{"value":5}']);
    expect(changed.stderr).toContain('value: Forbidden: may not be changed in an update.');
    const tooHigh = await kubectl.run(['create', 'priorityclass', 'huge', '--value=2000000000']);
    expect(tooHigh.stderr).toContain('value: Forbidden: maximum allowed value of a user defined priority is 1000000000');
    const reserved = await kubectl.run(['create', 'priorityclass', 'system-mine', '--value=10']);
    expect(reserved.stderr).toContain("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class");
    await kubectl.ok(['delete', 'pc', 'high']);
  });

  test('a NetworkPolicy from YAML is defaulted and prints its pod selector', async () => {
    const yaml = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: db
spec:
  podSelector:
    matchLabels:
      role: db
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: api
    ports:
    - port: 5432
`;
    await kubectl.ok(['apply', '-f', '-'], yaml);
    const got = await suite.getJson(['get', 'netpol', 'db']);
    expect(got.spec.policyTypes).toEqual(['Ingress']);
    expect(got.spec.ingress[0].ports).toEqual([{ port: 5432, protocol: 'TCP' }]);
    expect(cells(await kubectl.ok(['get', 'networkpolicies']))).toEqual([['db', 'role=db', expect.stringMatching(/s$/)]]);
    await kubectl.ok(['delete', '-f', '-'], yaml);
    expect(await kubectl.ok(['get', 'netpol'])).toBe('');
  });

  test('RuntimeClass, IngressClass and PodTemplate print their columns', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' }));
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx' } }));
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'tpl' }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } }));
    expect(cells(await kubectl.ok(['get', 'runtimeclasses']))).toEqual([['gvisor', 'runsc', expect.any(String)]]);
    expect(cells(await kubectl.ok(['get', 'ingressclasses']))).toEqual([['nginx', 'k8s.io/ingress-nginx', '<none>', expect.any(String)]]);
    expect(cells(await kubectl.ok(['get', 'podtemplates']))).toEqual([['tpl', 'c', 'busybox:1.36', 'app=x']]);
    const tpl = await suite.getJson(['get', 'podtemplate', 'tpl']);
    expect(tpl.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
  });
});

describe('HorizontalPodAutoscalers', () => {
  test('kubectl autoscale creates an HPA read as autoscaling/v2 and v1', async () => {
    await kubectl.ok(['create', 'deployment', 'web', '--image=nginx:1.27']);
    await kubectl.ok(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=60']);
    const v2 = await suite.getJson(['get', 'hpa', 'web']);
    expect(v2.apiVersion).toBe('autoscaling/v2');
    expect(v2.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
    });
    const v1 = await suite.getJson(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web']);
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    expect(v1.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    expect(cells(await kubectl.ok(['get', 'hpa']))).toEqual([['web', 'Deployment/web', 'cpu: <unknown>/60%', '2', '5', '0', expect.any(String)]]);
  });

  test('what v1 cannot say survives a v1 round trip in annotations', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'mem' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 4,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      },
    };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(hpa));
    const v2 = await suite.getJson(['get', 'hpa', 'mem']);
    expect(v2.spec.minReplicas).toBe(1);
    expect(v2.spec.behavior.scaleDown).toEqual({ stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
    expect(v2.spec.behavior.scaleUp).toEqual({ stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] });
    const v1 = JSON.parse((await suite.call('GET', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/mem')).text);
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(70);
    expect(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([hpa.spec.metrics[1]]);
    await kubectl.ok(['patch', 'horizontalpodautoscalers.v1.autoscaling', 'mem', '--type=merge', '-p', '{"spec":{"maxReplicas":6,"targetCPUUtilizationPercentage":75}}']);
    const after = await suite.getJson(['get', 'hpa', 'mem']);
    expect(after.spec.maxReplicas).toBe(6);
    expect(after.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } }, hpa.spec.metrics[1]]);
    expect(after.spec.behavior.scaleDown.stabilizationWindowSeconds).toBe(60);
    expect(Object.keys(after.metadata.annotations)).toEqual(['kubectl.kubernetes.io/last-applied-configuration']);
  });

  test('validation answers 422 with 1.32 messages', async () => {
    const bad = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bad' }, spec: { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 3, maxReplicas: 2 } };
    const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(bad));
    expect(r.stderr).toContain('The HorizontalPodAutoscaler "bad" is invalid');
    expect(r.stderr).toContain('spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`');
    expect(r.stderr).toContain('spec.scaleTargetRef.name: Required value');
    const zero = await suite.call('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', { ...bad, apiVersion: 'autoscaling/v1', spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 0, maxReplicas: 0 } });
    expect(zero.code).toBe(422);
    const status = JSON.parse(zero.text);
    expect(status.reason).toBe('Invalid');
    expect(status.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });
});

describe('CertificateSigningRequests', () => {
  async function certificateRequest(commonName: string, organizations: string[]): Promise<{ pem: string; keys: webcrypto.CryptoKeyPair }> {
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
    const keys = (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const name = [...organizations.map((o) => `O=${o}`), `CN=${commonName}`].join(', ');
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys: keys as never, signingAlgorithm: alg });
    return { pem: csr.toString('pem'), keys };
  }

  const csrObject = (name: string, pem: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(pem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 86400, ...extra },
  });

  test('kubectl certificate approve gets a certificate signed by the cluster CA, which then authenticates', async () => {
    const { pem, keys } = await certificateRequest('alice', ['developers']);
    await kubectl.ok(['create', '-f', '-'], JSON.stringify(csrObject('alice', pem, { username: 'mallory', groups: ['system:masters'] })));
    const pending = await suite.getJson(['get', 'csr', 'alice']);
    expect(pending.spec.username).toBe('kubeforge-admin');
    expect(pending.spec.groups).toContain('system:masters');
    expect(cells(await kubectl.ok(['get', 'csr']))).toEqual([['alice', expect.any(String), 'kubernetes.io/kube-apiserver-client', 'kubeforge-admin', '24h', 'Pending']]);
    expect(await kubectl.ok(['certificate', 'approve', 'alice'])).toContain('certificatesigningrequest.certificates.k8s.io/alice approved');
    await suite.cluster.settle();
    const issued = await suite.getJson(['get', 'csr', 'alice']);
    expect(issued.status.conditions).toEqual([expect.objectContaining({ type: 'Approved', status: 'True', reason: 'KubectlApprove' })]);
    const cert = new X509Certificate(Buffer.from(issued.status.certificate, 'base64'));
    const ca = new X509Certificate(suite.cluster.caCertPem);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subject).toContain('CN=alice');
    expect(Date.parse(cert.validFrom)).toBe(suite.cluster.clock.now() - 5 * 60 * 1000 - (suite.cluster.clock.now() % 1000));
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(86400_000 + 5 * 60 * 1000);
    expect(cells(await kubectl.ok(['get', 'csr', 'alice']))[0]![5]).toBe('Approved,Issued');
    expect(cells(await kubectl.ok(['get', 'csr', '--field-selector=spec.signerName=kubernetes.io/kube-apiserver-client'])).map((r) => r[0])).toEqual(['alice']);
    expect(await kubectl.ok(['get', 'csr', '--field-selector=spec.signerName=example.com/other'])).toBe('');
    // the issued certificate and its key log in as alice
    const keyPem = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
    const config = `${suite.cluster.kubeconfigPath}-alice-csr`;
    writeFileSync(config, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: suite.cluster.url, 'certificate-authority-data': Buffer.from(suite.cluster.caCertPem).toString('base64') } }],
      users: [{ name: 'alice', user: { 'client-certificate-data': issued.status.certificate, 'client-key-data': Buffer.from(keyPem).toString('base64') } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'alice' } }],
    }));
    const alice = new Kubectl(config);
    try {
      const whoami = await alice.ok(['auth', 'whoami', '-o', 'json']);
      expect(JSON.parse(whoami).status.userInfo).toMatchObject({ username: 'alice', groups: ['developers', 'system:authenticated'] });
    } finally {
      await alice.cleanup();
    }
  });

  test('a request breaking the signer rules fails with SignerValidationFailure; a denied one is never signed', async () => {
    const { pem } = await certificateRequest('bob', []);
    await kubectl.ok(['create', '-f', '-'], JSON.stringify(csrObject('bob-server', pem, { usages: ['server auth'] })));
    await kubectl.ok(['certificate', 'approve', 'bob-server']);
    await suite.cluster.settle();
    const failed = await suite.getJson(['get', 'csr', 'bob-server']);
    expect(failed.status.certificate).toBeUndefined();
    expect(failed.status.conditions.find((c: any) => c.type === 'Failed')).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    await kubectl.ok(['create', '-f', '-'], JSON.stringify(csrObject('bob', pem)));
    await kubectl.ok(['certificate', 'deny', 'bob']);
    await suite.cluster.settle();
    const denied = await suite.getJson(['get', 'csr', 'bob']);
    expect(denied.status.conditions).toEqual([expect.objectContaining({ type: 'Denied', status: 'True', reason: 'KubectlDeny' })]);
    expect(denied.status.certificate).toBeUndefined();
  });

  test('validation answers 422 for signerName, usages and request', async () => {
    const bad = { ...csrObject('bad', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'), spec: { request: Buffer.from('nope').toString('base64'), usages: ['bogus'] } };
    const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(bad));
    expect(r.stderr).toContain('The CertificateSigningRequest "bad" is invalid');
    expect(r.stderr).toContain('spec.signerName: Required value');
    expect(r.stderr).toContain('spec.usages[0]: Unsupported value: "bogus"');
    expect(r.stderr).toContain('spec.request: Invalid value: []byte{0x6e, 0x6f, 0x70, 0x65}: PEM block type must be CERTIFICATE REQUEST');
    const badSigner = await kubectl.run(['create', '-f', '-'], JSON.stringify({ ...bad, spec: { ...bad.spec, signerName: 'example', usages: ['client auth'] } }));
    expect(badSigner.stderr).toContain(`spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form 'example.com/signer-name'`);
  });
});

describe('objects a real server bootstraps', () => {
  test('kubectl get apiservices: one Local, Available APIService per served group version', async () => {
    const rows = cells(await kubectl.ok(['get', 'apiservices']));
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['v1.', 'v1.apps', 'v2.autoscaling', 'v1.autoscaling', 'v1.flowcontrol.apiserver.k8s.io', 'v1.apiregistration.k8s.io']));
    expect(rows).toHaveLength(21);
    for (const row of rows) expect(row.slice(1, 3)).toEqual(['Local', 'True']);
    const apps = await suite.getJson(['get', 'apiservice', 'v1.apps']);
    expect(apps.spec).toEqual({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    expect(apps.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
  });

  test('a CRD group gets its APIService (automanaged true) and loses it with the CRD', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(crd));
    await suite.cluster.settle();
    const service = await suite.getJson(['get', 'apiservice', 'v1.example.com']);
    expect(service.spec).toEqual({ group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    expect(service.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'true' });
    expect(service.status.conditions).toEqual([expect.objectContaining({ type: 'Available', status: 'True', reason: 'Local' })]);
    await kubectl.ok(['delete', 'crd', 'widgets.example.com']);
    await suite.cluster.settle();
    expect((await kubectl.run(['get', 'apiservice', 'v1.example.com'])).stderr).toContain('apiservices.apiregistration.k8s.io "v1.example.com" not found');
  });

  test('an APIService naming a missing Service is not available', async () => {
    const apiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, service: { namespace: 'kube-system', name: 'metrics-server' }, insecureSkipTLSVerify: true } };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(apiService));
    await suite.cluster.settle();
    const row = cells(await kubectl.ok(['get', 'apiservices'])).find((r) => r[0] === 'v1beta1.metrics.k8s.io');
    expect(row!.slice(1, 3)).toEqual(['kube-system/metrics-server', 'False (ServiceNotFound)']);
    const bad = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ ...apiService, metadata: { name: 'wrong' } }));
    expect(bad.stderr).toContain('metadata.name: Invalid value: "wrong": must be `spec.version+"."+spec.group`');
    await kubectl.ok(['delete', 'apiservice', 'v1beta1.metrics.k8s.io']);
  });

  test('kubectl get flowschemas and prioritylevelconfigurations show the bootstrap configuration', async () => {
    const schemas = cells(await kubectl.ok(['get', 'flowschemas', '--sort-by=.spec.matchingPrecedence']));
    expect(schemas[0]!.slice(0, 4)).toEqual(['exempt', 'exempt', '1', '<none>']);
    expect(schemas.at(-1)!.slice(0, 4)).toEqual(['catch-all', 'catch-all', '10000', 'ByUser']);
    expect(schemas.every((r) => r[5] === 'False')).toBe(true);
    const levels = cells(await kubectl.ok(['get', 'prioritylevelconfigurations']));
    expect(levels.find((r) => r[0] === 'exempt')!.slice(1, 3)).toEqual(['Exempt', '<none>']);
    expect(levels.find((r) => r[0] === 'catch-all')!.slice(1, 3)).toEqual(['Limited', '5']);
  });

  test('kubectl get componentstatuses answers healthy with the deprecation warning', async () => {
    const r = await kubectl.run(['get', 'componentstatuses']);
    expect(r.stderr).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
    expect(cells(r.stdout)).toEqual([['controller-manager', 'Healthy', 'ok', ''], ['scheduler', 'Healthy', 'ok', ''], ['etcd-0', 'Healthy', 'ok', '']]);
    const one = await suite.getJson(['get', 'cs', 'etcd-0']);
    expect(one.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);
    expect((await kubectl.run(['delete', 'cs', 'etcd-0'])).stderr).toContain('Error from server (MethodNotAllowed)');
  });
});
