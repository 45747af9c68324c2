/**
 * The built-in admission plugins of a default 1.32 API server, driven by real kubectl and
 * @kubernetes/client-node: LimitRanger defaults and limits, ResourceQuota usage and refusals (with the
 * quota controller on the virtual clock, and dry runs not charged), PodSecurity enforce/warn from
 * namespace labels, and ValidatingAdmissionPolicy with a binding and parameters.
 */
import * as k8s from '@kubernetes/client-node';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;

beforeAll(() => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
  apps = kc.makeApiClient(k8s.AppsV1Api);
});

async function namespace(name: string, labels: Record<string, string> = {}): Promise<void> {
  await core.createNamespace({ body: { metadata: { name, labels } } });
  await suite.cluster.settle();
}

function pod(name: string, resources?: k8s.V1ResourceRequirements, extra: Partial<k8s.V1PodSpec> = {}): k8s.V1Pod {
  return { metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', ...(resources ? { resources } : {}) }], ...extra } };
}

async function quotaUsed(ns: string, name: string): Promise<Record<string, string>> {
  await suite.cluster.settle();
  const q = await core.readNamespacedResourceQuota({ namespace: ns, name });
  return (q.status?.used ?? {}) as Record<string, string>;
}

describe('LimitRanger', () => {
  beforeAll(async () => {
    await namespace('limits');
    await kubectl.ok(['apply', '-n', 'limits', '-f', '-'], `apiVersion: v1
kind: LimitRange
metadata: {name: cpu-mem}
spec:
  limits:
  - type: Container
    max: {cpu: "1", memory: 1Gi}
    min: {cpu: 50m}
    default: {cpu: 500m, memory: 256Mi}
    defaultRequest: {cpu: 100m}
`);
  });

  test('defaults are stored on the LimitRange (defaultRequest from default)', async () => {
    const lr = await suite.getJson(['get', 'limitrange', 'cpu-mem', '-n', 'limits']);
    expect(lr.spec.limits[0].defaultRequest).toEqual({ cpu: '100m', memory: '256Mi' });
  });

  test('a pod without resources gets the defaults, containers and init containers, with the annotation', async () => {
    const body = pod('defaulted', undefined, { initContainers: [{ name: 'init', image: 'busybox:1.36' }] });
    await core.createNamespacedPod({ namespace: 'limits', body });
    const created = await suite.getJson(['get', 'pod', 'defaulted', '-n', 'limits']);
    expect(created.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
    expect(created.spec.initContainers[0].resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
    expect(created.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; cpu, memory request for init container init; cpu, memory limit for init container init',
    );
    expect(created.status.qosClass).toBe('Burstable');
  });

  test('a container over max is refused with the 403 message', async () => {
    const r = await kubectl.run(['run', 'big', '-n', 'limits', '--image', 'nginx', '--overrides', JSON.stringify({ spec: { containers: [{ name: 'big', image: 'nginx', resources: { limits: { cpu: '2' } } }] } })]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2.');
  });

  test('under min: the request is named', async () => {
    const err = await core.createNamespacedPod({ namespace: 'limits', body: pod('tiny', { requests: { cpu: '10m' }, limits: { cpu: '10m' } }) }).catch((e) => e);
    expect(err.code).toBe(403);
    expect(JSON.parse(err.body).message).toBe('pods "tiny" is forbidden: minimum cpu usage per Container is 50m, but request is 10m.');
  });

  test('validation: min greater than max is 422 as 1.32 words it', async () => {
    const r = await kubectl.run(['apply', '-n', 'limits', '-f', '-'], `apiVersion: v1
kind: LimitRange
metadata: {name: broken}
spec:
  limits:
  - type: Container
    min: {cpu: "2"}
    max: {cpu: "1"}
`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The LimitRange "broken" is invalid');
    expect(r.stderr).toContain('spec.limits[0][cpu]: Invalid value: "2": min value 2 is greater than max value 1');
  });
});

describe('ResourceQuota', () => {
  beforeAll(async () => {
    await namespace('quota');
    await kubectl.ok(['create', 'quota', 'compute', '-n', 'quota', '--hard', 'pods=2,requests.cpu=1,count/configmaps=5']);
    await suite.cluster.settle();
  });

  test('kubectl create quota (protobuf) and the controller fills status', async () => {
    const q = await suite.getJson(['get', 'quota', 'compute', '-n', 'quota']);
    expect(q.spec.hard).toEqual({ 'count/configmaps': '5', pods: '2', 'requests.cpu': '1' });
    expect(q.status.hard).toEqual(q.spec.hard);
    // the namespace's kube-root-ca.crt ConfigMap counts
    expect(q.status.used).toEqual({ 'count/configmaps': '1', pods: '0', 'requests.cpu': '0' });
  });

  test('a pod without a cpu request is refused: must specify requests.cpu', async () => {
    const r = await kubectl.run(['run', 'nocpu', '-n', 'quota', '--image', 'nginx']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Forbidden): pods "nocpu" is forbidden: failed quota: compute: must specify requests.cpu for: nocpu');
  });

  test('usage grows with creates, a dry run is not charged, the third pod exceeds quota', async () => {
    const overrides = (name: string) => JSON.stringify({ spec: { containers: [{ name, image: 'nginx', resources: { requests: { cpu: '300m' } } }] } });
    await kubectl.ok(['run', 'p1', '-n', 'quota', '--image', 'nginx', '--overrides', overrides('p1')]);
    expect(await quotaUsed('quota', 'compute')).toMatchObject({ pods: '1', 'requests.cpu': '300m' });
    const dry = await kubectl.ok(['run', 'p2', '-n', 'quota', '--image', 'nginx', '--overrides', overrides('p2'), '--dry-run=server']);
    expect(dry).toContain('pod/p2 created (server dry run)');
    expect(await quotaUsed('quota', 'compute')).toMatchObject({ pods: '1', 'requests.cpu': '300m' });
    await kubectl.ok(['run', 'p2', '-n', 'quota', '--image', 'nginx', '--overrides', overrides('p2')]);
    const r = await kubectl.run(['run', 'p3', '-n', 'quota', '--image', 'nginx', '--overrides', overrides('p3')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2');
    expect(await quotaUsed('quota', 'compute')).toMatchObject({ pods: '2', 'requests.cpu': '600m' });
  });

  test('kubectl get and describe show used/hard', async () => {
    const table = await kubectl.ok(['get', 'quota', '-n', 'quota']);
    expect(table).toMatch(/compute\s+\S+\s+count\/configmaps: 1\/5, pods: 2\/2, requests\.cpu: 600m\/1/);
    const described = await kubectl.ok(['describe', 'quota', 'compute', '-n', 'quota']);
    expect(described).toMatch(/pods\s+2\s+2/);
    expect(described).toMatch(/requests\.cpu\s+600m\s+1/);
  });

  test('deletes give usage back (quota controller); count/<resource> counts other kinds', async () => {
    await kubectl.ok(['delete', 'pod', 'p1', '-n', 'quota', '--wait=false']);
    await kubectl.ok(['create', 'configmap', 'c1', '-n', 'quota']);
    await suite.cluster.clock.advance(60_000);
    const used = await quotaUsed('quota', 'compute');
    expect(used).toEqual({ 'count/configmaps': '2', pods: '1', 'requests.cpu': '300m' });
  });

  test('a finished pod stops counting toward pods and requests on the virtual clock', async () => {
    await namespace('jobs');
    await kubectl.ok(['create', 'quota', 'q', '-n', 'jobs', '--hard', 'pods=5,count/pods=5']);
    await suite.cluster.settle();
    await core.createNamespacedPod({
      namespace: 'jobs',
      body: { metadata: { name: 'short' }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5'] }] } },
    });
    expect(await quotaUsed('jobs', 'q')).toEqual({ 'count/pods': '1', pods: '1' });
    await suite.cluster.clock.advance(30_000);
    const phase = (await core.readNamespacedPod({ namespace: 'jobs', name: 'short' })).status?.phase;
    expect(phase).toBe('Succeeded');
    expect(await quotaUsed('jobs', 'q')).toEqual({ 'count/pods': '1', pods: '0' });
  });

  test('a BestEffort-scoped quota counts only BestEffort pods', async () => {
    await namespace('scoped');
    await core.createNamespacedResourceQuota({ namespace: 'scoped', body: { metadata: { name: 'be' }, spec: { hard: { pods: '1' }, scopes: ['BestEffort'] } } });
    await suite.cluster.settle();
    await core.createNamespacedPod({ namespace: 'scoped', body: pod('burstable', { requests: { cpu: '100m' } }) });
    await core.createNamespacedPod({ namespace: 'scoped', body: pod('besteffort-1') });
    expect(await quotaUsed('scoped', 'be')).toEqual({ pods: '1' });
    const err = await core.createNamespacedPod({ namespace: 'scoped', body: pod('besteffort-2') }).catch((e) => e);
    expect(err.code).toBe(403);
    expect(JSON.parse(err.body).message).toBe('pods "besteffort-2" is forbidden: exceeded quota: be, requested: pods=1, used: pods=1, limited: pods=1');
  });

  test('validation: a negative quantity and conflicting scopes are 422', async () => {
    const err = await core
      .createNamespacedResourceQuota({ namespace: 'scoped', body: { metadata: { name: 'bad' }, spec: { hard: { pods: '-1' }, scopes: ['Terminating', 'NotTerminating'] } } })
      .catch((e) => e);
    expect(err.code).toBe(422);
    const message = JSON.parse(err.body).message;
    expect(message).toContain('spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0');
    expect(message).toContain('conflicting scopes');
  });
});

describe('PodSecurity', () => {
  const memcachedDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: memcached}
spec:
  replicas: 1
  selector: {matchLabels: {app: memcached}}
  template:
    metadata: {labels: {app: memcached}}
    spec:
      securityContext:
        runAsNonRoot: true
        seccompProfile: {type: RuntimeDefault}
      containers:
      - name: memcached
        image: memcached:1.6.26-alpine
        command: ["memcached", "--memory-limit=64", "-o", "modern", "-v"]
        ports: [{containerPort: 11211, name: memcached}]
        securityContext:
          runAsNonRoot: true
          runAsUser: 1001
          allowPrivilegeEscalation: false
          capabilities: {drop: ["ALL"]}
`;

  beforeAll(() => namespace('restricted', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' }));

  test('enforce: a plain pod is refused with the restricted violations', async () => {
    const r = await kubectl.run(['run', 'plain', '-n', 'restricted', '--image', 'nginx']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error from server (Forbidden): pods "plain" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "plain" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "plain" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "plain" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  test('warn: a Deployment with a violating template is created and kubectl prints the warning', async () => {
    const r = await kubectl.run(['create', 'deployment', 'loose', '-n', 'restricted', '--image', 'nginx']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false)');
  });

  test("the Memcached tutorial's Deployment and its pod pass restricted", async () => {
    const r = await kubectl.run(['apply', '-n', 'restricted', '-f', '-'], memcachedDeployment);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('PodSecurity');
    const template = (await apps.readNamespacedDeployment({ namespace: 'restricted', name: 'memcached' })).spec!.template;
    const created = await core.createNamespacedPod({ namespace: 'restricted', body: { metadata: { name: 'memcached-pod' }, spec: template.spec! } });
    expect(created.metadata?.name).toBe('memcached-pod');
  });

  test("a Job's pods refused by enforce: the Job gets a FailedCreate event naming the generated pod", async () => {
    await kubectl.ok(['create', 'job', 'refused', '-n', 'restricted', '--image=busybox:1.36', '--', 'true']);
    await suite.cluster.clock.advance(5_000);
    const events = (await suite.getJson(['get', 'events', '-n', 'restricted', '--field-selector', 'involvedObject.name=refused'])).items;
    const failed = events.filter((e: any) => e.reason === 'FailedCreate');
    // one per attempt (the controller retries with backoff), each naming that attempt's generated pod
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const e of failed) {
      expect(e.type).toBe('Warning');
      expect(e.message).toMatch(/^Error creating: pods "refused-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
    }
    expect(new Set(failed.map((e: any) => e.message)).size).toBe(failed.length);
  });

  test('baseline: host namespaces, hostPort and privileged are named in order', async () => {
    await namespace('baseline', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    const err = await core
      .createNamespacedPod({
        namespace: 'baseline',
        body: { metadata: { name: 'hosty' }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 80 }], securityContext: { privileged: true } }] } },
      })
      .catch((e) => e);
    expect(err.code).toBe(403);
    expect(JSON.parse(err.body).message).toBe(
      'pods "hosty" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPort (container "c" uses hostPort 80), privileged (container "c" must not set securityContext.privileged=true)',
    );
  });

  test('labelling a namespace restricted warns about its existing pods; an invalid level is 422', async () => {
    await namespace('relabel');
    await core.createNamespacedPod({ namespace: 'relabel', body: pod('a') });
    await core.createNamespacedPod({ namespace: 'relabel', body: pod('b') });
    const r = await kubectl.run(['label', 'ns', 'relabel', 'pod-security.kubernetes.io/enforce=restricted']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: existing pods in namespace "relabel" violate the new PodSecurity enforce level "restricted:latest"');
    expect(r.stderr).toContain('Warning: a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
    const bad = await kubectl.run(['label', 'ns', 'relabel', 'pod-security.kubernetes.io/warn=strict']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });
});

describe('ValidatingAdmissionPolicy', () => {
  beforeAll(async () => {
    await namespace('vap', { environment: 'test' });
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  variables:
  - name: max
    expression: "int(params.data.maxReplicas)"
  validations:
  - expression: "object.spec.replicas <= variables.max"
    messageExpression: "'replicas must be no greater than ' + string(variables.max)"
    reason: Invalid
  - expression: "!object.metadata.name.startsWith('tmp-')"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replica-limit-deny}
spec:
  policyName: replica-limit
  validationActions: [Deny]
  paramRef: {name: limits, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector: {matchLabels: {environment: test}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: vap}
data: {maxReplicas: "3"}
`);
    await suite.cluster.settle();
  });

  test('the status controller writes observedGeneration and typeChecking', async () => {
    const policy = await suite.getJson(['get', 'validatingadmissionpolicy', 'replica-limit']);
    expect(policy.spec.failurePolicy).toBe('Fail');
    expect(policy.status.observedGeneration).toBe(1);
    expect(policy.status).toHaveProperty('typeChecking');
  });

  test('Deny: the messageExpression in the 1.32 wording, 422 for reason Invalid', async () => {
    const r = await kubectl.run(['create', 'deployment', 'web', '-n', 'vap', '--image', 'nginx', '--replicas', '5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: replicas must be no greater than 3");
    const err = await apps
      .createNamespacedDeployment({ namespace: 'vap', body: { metadata: { name: 'web' }, spec: { replicas: 4, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } } })
      .catch((e) => e);
    expect(err.code).toBe(422);
    expect(JSON.parse(err.body)).toMatchObject({ reason: 'Invalid', code: 422 });
    await kubectl.ok(['create', 'deployment', 'web', '-n', 'vap', '--image', 'nginx', '--replicas', '3']);
  });

  test('Deny with reason Forbidden is 403; no message: "failed expression"', async () => {
    const r = await suite.cluster.settle().then(() =>
      apps
        .createNamespacedDeployment({ namespace: 'vap', body: { metadata: { name: 'tmp-x' }, spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } } })
        .catch((e) => e),
    );
    expect(r.code).toBe(403);
    expect(JSON.parse(r.body).message).toBe(
      "deployments.apps \"tmp-x\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: failed expression: !object.metadata.name.startsWith('tmp-')",
    );
  });

  test('outside the binding namespaceSelector nothing is checked; a missing parameter with Deny refuses', async () => {
    await namespace('vap-other');
    await kubectl.ok(['create', 'deployment', 'many', '-n', 'vap-other', '--image', 'nginx', '--replicas', '9']);
    await kubectl.ok(['label', 'ns', 'vap-other', 'environment=test']);
    // the scale subresource is not matched by resources: ["deployments"]
    await kubectl.ok(['scale', 'deployment', 'many', '-n', 'vap-other', '--replicas', '2']);
    const r = await kubectl.run(['label', 'deployment', 'many', '-n', 'vap-other', 'tier=web']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction');
  });

  test('Warn: kubectl prints the warning and the write happens', async () => {
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: needs-team}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  matchConditions:
  - name: not-system
    expression: "!request.userInfo.username.startsWith('system:')"
  validations:
  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
    message: "configmaps should carry a team label"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: needs-team-warn}
spec:
  policyName: needs-team
  validationActions: [Warn]
`);
    const r = await kubectl.run(['create', 'configmap', 'unlabelled', '-n', 'vap']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Warning: Validation failed for ValidatingAdmissionPolicy 'needs-team' with binding 'needs-team-warn': configmaps should carry a team label");
    expect(await kubectl.ok(['get', 'configmap', 'unlabelled', '-n', 'vap', '-o', 'name'])).toBe('configmap/unlabelled\n');
  });

  test('type checking: an expression naming a field the matched kind lacks gets a warning in status', async () => {
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: typo}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}]
  validations:
  - expression: "object.spec.replicas >= 0"
  - expression: "object.spec.replicaz >= 0"
`);
    await suite.cluster.settle();
    const status = JSON.parse(await kubectl.ok(['get', 'validatingadmissionpolicy', 'typo', '-o', 'jsonpath={.status}']));
    expect(status.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz >= 0\n | ...........^" },
    ]);
  });

  test('authorizer: a policy asks RBAC whether the requesting user may do more', async () => {
    await namespace('authz');
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: secret-admins-only}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"]}]
    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: authz}}
  validations:
  - expression: "!has(object.metadata.labels) || !('sensitive' in object.metadata.labels) || authorizer.group('').resource('secrets').namespace(object.metadata.namespace).check('get').allowed()"
    messageExpression: "'only users who may read secrets create sensitive configmaps; ' + request.userInfo.username + ' may not'"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: secret-admins-only}
spec:
  policyName: secret-admins-only
  validationActions: [Deny]
`);
    await kubectl.ok(['create', 'role', 'cm-writer', '-n', 'authz', '--verb=create,get', '--resource=configmaps']);
    await kubectl.ok(['create', 'rolebinding', 'dev-cm-writer', '-n', 'authz', '--role=cm-writer', '--user=dev']);
    const dev = suite.kubectlAs('dev');
    await dev.ok(['create', 'configmap', 'plain', '-n', 'authz']);
    const refused = await dev.run(['create', '-n', 'authz', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'secret-ish', labels: { sensitive: 'yes' } } }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("configmaps \"secret-ish\" is forbidden: ValidatingAdmissionPolicy 'secret-admins-only' with binding 'secret-admins-only' denied request: only users who may read secrets create sensitive configmaps; dev may not");
    await kubectl.ok(['create', 'role', 'secret-reader', '-n', 'authz', '--verb=get', '--resource=secrets']);
    await kubectl.ok(['create', 'rolebinding', 'dev-secret-reader', '-n', 'authz', '--role=secret-reader', '--user=dev']);
    await dev.ok(['create', '-n', 'authz', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'secret-ish', labels: { sensitive: 'yes' } } }));
  });

  test('validation: an expression that does not compile and Deny with Warn are 422', async () => {
    const r = await kubectl.run(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: both}
spec:
  policyName: x
  validationActions: [Deny, Warn]
`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('spec.validationActions: Invalid value: ');
    expect(r.stderr).toContain('must not contain both Deny and Warn');
    const c = await kubectl.run(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: broken}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"]}]
  validations:
  - expression: "object.spec.replicas <="
`);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('spec.validations[0].expression: Invalid value: "object.spec.replicas <=": compilation failed: ERROR: <input>:1:24: Syntax error');
  });
});

describe('admission on DELETE and the request variable', () => {
  test('a ValidatingAdmissionPolicy matching DELETE sees oldObject and the user', async () => {
    await namespace('guarded');
    await kubectl.ok(['create', 'configmap', 'keep', '-n', 'guarded', '--from-literal=protected=yes']);
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: protect}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: ["v1"], operations: ["DELETE"], resources: ["configmaps"]}
    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: guarded}}
  validations:
  - expression: "object == null && !(has(oldObject.data) && 'protected' in oldObject.data)"
    messageExpression: "request.userInfo.username + ' may not delete ' + oldObject.metadata.name"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: protect}
spec:
  policyName: protect
  validationActions: [Deny]
`);
    const r = await kubectl.run(['delete', 'configmap', 'keep', '-n', 'guarded']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("configmaps \"keep\" is forbidden: ValidatingAdmissionPolicy 'protect' with binding 'protect' denied request: kubeforge-admin may not delete keep");
    await kubectl.ok(['create', 'configmap', 'scratch', '-n', 'guarded']);
    await kubectl.ok(['delete', 'configmap', 'scratch', '-n', 'guarded']);
  });

  test('a pod with limits only gets requests equal to its limits (pod defaulting)', async () => {
    await namespace('defaults');
    const created = await core.createNamespacedPod({ namespace: 'defaults', body: pod('lim', { limits: { cpu: '1', memory: '1Gi' } }) });
    expect(created.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } });
    expect(created.status!.qosClass).toBe('Guaranteed');
  });
});
