/** The Pod Security Standards checks: levels, restricted overriding baseline, wording and order of the reasons. */
import { evaluatePodSecurity, failureText } from './pod-security-checks.js';

const memcachedSpec = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [
    {
      name: 'memcached',
      image: 'memcached:1.6.26-alpine',
      securityContext: { runAsNonRoot: true, runAsUser: 1001, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  ],
};

test("the Memcached tutorial's pod spec passes every level", () => {
  for (const level of ['privileged', 'baseline', 'restricted'] as const) expect(evaluatePodSecurity(level, memcachedSpec)).toEqual([]);
});

test('privileged checks nothing; baseline passes a plain pod that restricted refuses', () => {
  const plain = { containers: [{ name: 'c', image: 'nginx' }] };
  expect(evaluatePodSecurity('privileged', { ...plain, hostPID: true })).toEqual([]);
  expect(evaluatePodSecurity('baseline', plain)).toEqual([]);
  expect(failureText(evaluatePodSecurity('restricted', plain), false)).toBe('allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
});

test('restricted replaces the baseline capability, seccomp and hostPath checks', () => {
  const spec = {
    volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'd', emptyDir: {} }],
    containers: [{ name: 'c', image: 'x', securityContext: { capabilities: { add: ['SYS_TIME'] }, seccompProfile: { type: 'Unconfined' } } }],
  };
  const baseline = evaluatePodSecurity('baseline', spec);
  expect(baseline.map((f) => f.reason)).toEqual(['non-default capabilities', 'hostPath volumes', 'seccompProfile']);
  const restricted = evaluatePodSecurity('restricted', spec);
  expect(restricted.find((f) => f.reason === 'unrestricted capabilities')?.detail).toBe(
    'container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_TIME" in securityContext.capabilities.add',
  );
  expect(restricted.find((f) => f.reason === 'restricted volume types')?.detail).toBe('volume "h" uses restricted volume type "hostPath"');
  expect(restricted.find((f) => f.reason === 'seccompProfile')?.detail).toBe('container "c" must not set securityContext.seccompProfile.type to "Unconfined"');
  expect(restricted.some((f) => f.reason === 'hostPath volumes')).toBe(false);
});

test('plural wording for several containers and ports (ports sorted as strings, as a Go string set)', () => {
  const spec = {
    containers: [
      { name: 'a', image: 'x', ports: [{ containerPort: 80, hostPort: 80 }] },
      { name: 'b', image: 'x', ports: [{ containerPort: 443, hostPort: 443 }] },
    ],
  };
  expect(evaluatePodSecurity('baseline', spec)).toEqual([{ reason: 'hostPort', detail: 'containers "a", "b" use hostPorts 443, 80' }]);
});

test('runAsNonRoot and runAsUser: explicit false and root are named before anything implicit', () => {
  const spec = {
    securityContext: { runAsNonRoot: false, runAsUser: 0 },
    containers: [{ name: 'c', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } }],
  };
  expect(failureText(evaluatePodSecurity('restricted', spec))).toBe(
    'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0)',
  );
});

test('order: baseline checks first, then restricted ones; setters joined with "and"', () => {
  const spec = {
    securityContext: { seccompProfile: { type: 'Unconfined' } },
    containers: [{ name: 'c', image: 'x', securityContext: { privileged: true, runAsUser: 0, seccompProfile: { type: 'Unconfined' } } }],
  };
  const failures = evaluatePodSecurity('restricted', spec);
  expect(failures.map((f) => f.reason)).toEqual(['privileged', 'allowPrivilegeEscalation != false', 'unrestricted capabilities', 'runAsNonRoot != true', 'runAsUser=0', 'seccompProfile']);
  expect(failures.at(-1)!.detail).toBe('pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined"');
});

test('AppArmor: profile types and the beta annotations', () => {
  const spec = { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [{ name: 'c', image: 'x' }] };
  const meta = { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } };
  expect(evaluatePodSecurity('baseline', spec, meta)).toEqual([
    {
      reason: 'forbidden AppArmor profiles',
      detail: 'pod and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c=\\"unconfined\\""',
    },
  ]);
});

test('a version label leaves out the checks added after it', () => {
  const plain = { containers: [{ name: 'c', image: 'nginx', securityContext: { runAsUser: 0 } }] };
  expect(evaluatePodSecurity('restricted', plain, {}, 'v1.21').map((f) => f.reason)).toEqual(['allowPrivilegeEscalation != false', 'runAsNonRoot != true', 'seccompProfile']);
  expect(evaluatePodSecurity('restricted', plain, {}, 'v1.23').map((f) => f.reason)).toContain('runAsUser=0');
  const sysctl = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '60' }] }, containers: [{ name: 'c', image: 'x' }] };
  expect(evaluatePodSecurity('baseline', sysctl, {}, 'v1.28')).toEqual([{ reason: 'forbidden sysctls', detail: 'net.ipv4.tcp_keepalive_time' }]);
  expect(evaluatePodSecurity('baseline', sysctl, {}, 'latest')).toEqual([]);
});
