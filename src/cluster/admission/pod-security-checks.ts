/**
 * The Pod Security Standards of Kubernetes 1.32 (k8s.io/pod-security-admission/policy) as checks over a
 * pod spec: the baseline set, and the restricted set on top of it (restricted checks replace their
 * baseline counterparts). Each failing check gives a reason and a detail worded as the real checks word
 * them; `evaluatePodSecurity` returns them as PodSecurity admission orders them: baseline checks by ID,
 * then restricted checks by ID.
 * A version label (`v1.25`) leaves out the checks (and safe sysctls) added after it; `latest` is 1.32's set.
 * Older check variants (the seccomp and AppArmor annotations before 1.19) are not modelled.
 */
import type { Container, ContainerPort, EphemeralContainer, PodSpec, SELinuxOptions, Sysctl, Volume } from 'kubernetes-types/core/v1.js';

type Meta = { annotations?: Record<string, string> };

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';
export const podSecurityLevels: PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];

export interface CheckFailure {
  reason: string;
  detail?: string;
}

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** Baseline checks a restricted check replaces. */
  overrides?: string;
  /** The first policy version (minor of v1.x) the check belongs to; 0 when it always did. */
  since?: number;
  run(spec: PodSpec, meta: Meta, minor: number): CheckFailure | undefined;
}

interface NamedContainer {
  name: string;
  c: Container | EphemeralContainer;
}

function containersOf(spec: PodSpec): NamedContainer[] {
  const all: Array<Container | EphemeralContainer> = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  return all.filter((c) => c && typeof c === 'object').map((c) => ({ name: String(c.name ?? ''), c }));
}

const plural = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const joinQuote = (items: string[]): string => items.map((i) => JSON.stringify(i)).join(', ');
const withContainers = (names: string[]): string => `${plural('container', 'containers', names.length)} ${joinQuote(names)}`;
/** A Go sets.String's List(): distinct and sorted. */
const sortedSet = (items: string[]): string[] => [...new Set(items)].sort();
/** `pod and containers "a", "b"`: who set a forbidden value. */
const setters = (pod: boolean, containers: string[]): string[] => [...(pod ? ['pod'] : []), ...(containers.length ? [withContainers(containers)] : [])];
const isWindows = (spec: PodSpec): boolean => spec.os?.name === 'windows';

const baselineCapabilities = ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT'];
/** Safe sysctls by the policy version that allowed them. */
const allowedSysctls: Array<[string, number]> = [
  ['kernel.shm_rmid_forced', 0], ['net.ipv4.ip_local_port_range', 0], ['net.ipv4.ip_unprivileged_port_start', 0], ['net.ipv4.tcp_syncookies', 0],
  ['net.ipv4.ping_group_range', 0], ['net.ipv4.ip_local_reserved_ports', 27], ['net.ipv4.tcp_keepalive_time', 29], ['net.ipv4.tcp_fin_timeout', 29],
  ['net.ipv4.tcp_keepalive_intvl', 29], ['net.ipv4.tcp_keepalive_probes', 29],
];
const allowedVolumeTypes = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const allowedSeLinuxTypes = ['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'];

function volumeType(v: Volume): string | undefined {
  return Object.entries(v).find(([k, source]) => k !== 'name' && source !== undefined && source !== null)?.[0];
}

const checks: Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    since: 8,
    run(spec) {
      if (isWindows(spec)) return undefined;
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.allowPrivilegeEscalation !== false).map((x) => x.name);
      return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${withContainers(bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
    },
  },
  {
    id: 'appArmorProfile',
    level: 'baseline',
    run(spec, meta) {
      const allowed = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
      const badValues: string[] = [];
      const podType = spec.securityContext?.appArmorProfile?.type;
      const podBad = spec.securityContext?.appArmorProfile !== undefined && !allowed(podType);
      if (podBad) badValues.push(String(podType ?? ''));
      const bad: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        if (c.securityContext?.appArmorProfile === undefined || allowed(c.securityContext.appArmorProfile.type)) continue;
        bad.push(name);
        badValues.push(String(c.securityContext.appArmorProfile.type ?? ''));
      }
      const who = setters(podBad, bad);
      const annotations = Object.entries(meta.annotations ?? {})
        .filter(([k, v]) => k.startsWith('container.apparmor.security.beta.kubernetes.io/') && v !== '' && v !== 'runtime/default' && !String(v).startsWith('localhost/'))
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .sort();
      const values = [...sortedSet(badValues), ...annotations];
      if (annotations.length) who.push(plural('annotation', 'annotations', annotations.length));
      if (who.length === 0) return undefined;
      return {
        reason: plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
        detail: `${who.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
      };
    },
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    run(spec) {
      const names: string[] = [];
      const caps: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap: string) => !baselineCapabilities.includes(cap));
        if (extra.length) {
          names.push(name);
          caps.push(...extra);
        }
      }
      return names.length ? { reason: 'non-default capabilities', detail: `${withContainers(names)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add` } : undefined;
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    since: 22,
    overrides: 'capabilities_baseline',
    run(spec) {
      if (isWindows(spec)) return undefined;
      const noDrop: string[] = [];
      const adders: string[] = [];
      const caps: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        if (!(c.securityContext?.capabilities?.drop ?? []).includes('ALL')) noDrop.push(name);
        const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap: string) => cap !== 'NET_BIND_SERVICE');
        if (extra.length) {
          adders.push(name);
          caps.push(...extra);
        }
      }
      const details: string[] = [];
      if (noDrop.length) details.push(`${withContainers(noDrop)} must set securityContext.capabilities.drop=["ALL"]`);
      if (adders.length) details.push(`${withContainers(adders)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
      return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    run(spec) {
      const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((f) => spec[f] === true).map((f) => `${f}=true`);
      return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    run(spec) {
      const bad = (spec.volumes ?? []).filter((v: Volume) => v?.hostPath).map((v: Volume) => String(v.name ?? ''));
      return bad.length ? { reason: 'hostPath volumes', detail: `${plural('volume', 'volumes', bad.length)} ${joinQuote(bad)}` } : undefined;
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    run(spec) {
      const names: string[] = [];
      const ports: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        const hostPorts = (c.ports ?? []).map((p: ContainerPort) => p?.hostPort).filter((p: unknown) => typeof p === 'number' && p !== 0);
        if (hostPorts.length) {
          names.push(name);
          ports.push(...hostPorts.map(String));
        }
      }
      const all = sortedSet(ports);
      return names.length
        ? { reason: 'hostPort', detail: `${withContainers(names)} ${plural('uses', 'use', names.length)} ${plural('hostPort', 'hostPorts', all.length)} ${all.join(', ')}` }
        : undefined;
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    run(spec) {
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.privileged === true).map((x) => x.name);
      return bad.length ? { reason: 'privileged', detail: `${withContainers(bad)} must not set securityContext.privileged=true` } : undefined;
    },
  },
  {
    id: 'procMount',
    level: 'baseline',
    run(spec) {
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.procMount !== undefined && c.securityContext.procMount !== 'Default');
      if (!bad.length) return undefined;
      const values = sortedSet(bad.map(({ c }) => String(c.securityContext?.procMount)));
      return { reason: 'procMount', detail: `${withContainers(bad.map((x) => x.name))} must not set securityContext.procMount to ${joinQuote(values)}` };
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    overrides: 'hostPathVolumes',
    run(spec) {
      const names: string[] = [];
      const types: string[] = [];
      for (const v of spec.volumes ?? []) {
        const type = v && typeof v === 'object' ? volumeType(v) : undefined;
        if (type && !allowedVolumeTypes.includes(type)) {
          names.push(String(v.name ?? ''));
          types.push(type);
        }
      }
      const all = sortedSet(types);
      return names.length
        ? { reason: 'restricted volume types', detail: `${plural('volume', 'volumes', names.length)} ${joinQuote(names)} ${plural('uses', 'use', names.length)} ${plural('restricted volume type', 'restricted volume types', all.length)} ${joinQuote(all)}` }
        : undefined;
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    run(spec) {
      const podValue = spec.securityContext?.runAsNonRoot;
      const explicitFalse: string[] = [];
      const implicit: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        const v = c.securityContext?.runAsNonRoot;
        if (v === false) explicitFalse.push(name);
        else if ((v === undefined || v === null) && podValue !== true) implicit.push(name);
      }
      const who = setters(podValue === false, explicitFalse);
      if (who.length) return { reason: 'runAsNonRoot != true', detail: `${who.join(' and ')} must not set securityContext.runAsNonRoot=false` };
      if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${withContainers(implicit)} must set securityContext.runAsNonRoot=true` };
      return undefined;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    since: 23,
    run(spec) {
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.runAsUser === 0).map((x) => x.name);
      const who = setters(spec.securityContext?.runAsUser === 0, bad);
      return who.length ? { reason: 'runAsUser=0', detail: `${who.join(' and ')} must not set runAsUser=0` } : undefined;
    },
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    run(spec) {
      const badTypes: string[] = [];
      let setUser = false;
      let setRole = false;
      const valid = (o: SELinuxOptions | undefined): boolean => {
        if (!o) return true;
        let ok = true;
        if (!allowedSeLinuxTypes.includes(o.type ?? '')) {
          ok = false;
          badTypes.push(String(o.type));
        }
        if (o.user) {
          ok = false;
          setUser = true;
        }
        if (o.role) {
          ok = false;
          setRole = true;
        }
        return ok;
      };
      const podBad = !valid(spec.securityContext?.seLinuxOptions);
      const bad = containersOf(spec).filter(({ c }) => !valid(c.securityContext?.seLinuxOptions)).map((x) => x.name);
      const who = setters(podBad, bad);
      if (who.length === 0) return undefined;
      const data: string[] = [];
      const types = sortedSet(badTypes);
      if (types.length) data.push(`${plural('type', 'types', types.length)} ${joinQuote(types)}`);
      if (setUser) data.push('user may not be set');
      if (setRole) data.push('role may not be set');
      return { reason: 'seLinuxOptions', detail: `${who.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    run(spec) {
      const valid = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
      const values: string[] = [];
      const podProfile = spec.securityContext?.seccompProfile;
      const podBad = podProfile !== undefined && podProfile !== null && !valid(podProfile.type);
      if (podBad) values.push(String(podProfile.type ?? ''));
      const bad: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        const profile = c.securityContext?.seccompProfile;
        if (profile === undefined || profile === null || valid(profile.type)) continue;
        bad.push(name);
        values.push(String(profile.type ?? ''));
      }
      const who = setters(podBad, bad);
      return who.length ? { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}` } : undefined;
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    since: 19,
    overrides: 'seccompProfile_baseline',
    run(spec) {
      if (isWindows(spec)) return undefined;
      const valid = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
      const values: string[] = [];
      const podProfile = spec.securityContext?.seccompProfile;
      const podSet = podProfile !== undefined && podProfile !== null;
      const podBad = podSet && !valid(podProfile.type);
      if (podBad) values.push(String(podProfile.type ?? ''));
      const bad: string[] = [];
      const implicit: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        const profile = c.securityContext?.seccompProfile;
        if (profile !== undefined && profile !== null) {
          if (!valid(profile.type)) {
            bad.push(name);
            values.push(String(profile.type ?? ''));
          }
        } else if (!(podSet && !podBad)) implicit.push(name);
      }
      const who = setters(podBad, bad);
      if (who.length) return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}` };
      if (implicit.length) return { reason: 'seccompProfile', detail: `pod or ${withContainers(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
      return undefined;
    },
  },
  {
    id: 'sysctls',
    level: 'baseline',
    run(spec, _meta, minor) {
      const allowed = allowedSysctls.filter(([, since]) => since <= minor).map(([name]) => name);
      const bad = (spec.securityContext?.sysctls ?? []).map((s: Sysctl) => String(s?.name ?? '')).filter((n: string) => !allowed.includes(n));
      return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
    },
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    run(spec) {
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.windowsOptions?.hostProcess === true).map((x) => x.name);
      const who = setters(spec.securityContext?.windowsOptions?.hostProcess === true, bad);
      return who.length ? { reason: 'hostProcess', detail: `${who.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` } : undefined;
    },
  },
];

/**
 * The checks of a level at a policy version: baseline checks, then restricted ones (each by ID), restricted
 * checks replacing the baseline checks they override; checks newer than the version are left out.
 */
function checksOf(level: PodSecurityLevel, minor: number): Check[] {
  if (level === 'privileged') return [];
  const byId = (a: Check, b: Check): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const inVersion = (c: Check): boolean => (c.since ?? 0) <= minor;
  const baseline = checks.filter((c) => c.level === 'baseline' && inVersion(c)).sort(byId);
  if (level === 'baseline') return baseline;
  const restricted = checks.filter((c) => c.level === 'restricted' && inVersion(c)).sort(byId);
  const overridden = new Set(restricted.map((c) => c.overrides).filter(Boolean));
  return [...baseline.filter((c) => !overridden.has(c.id)), ...restricted];
}

/** The minor of a policy version label (`v1.25` → 25; `latest` → the newest, 1.32's). */
export function policyMinor(version: string): number {
  const m = /^v1\.(\d+)$/.exec(version);
  return m ? Math.min(Number(m[1]), 32) : 32;
}

/** The failures of a pod spec (and its pod or template metadata) against a level at a version (`latest` by default). */
export function evaluatePodSecurity(level: PodSecurityLevel, spec: PodSpec | undefined, meta: Meta = {}, version = 'latest'): CheckFailure[] {
  if (!spec || typeof spec !== 'object') return [];
  const minor = policyMinor(version);
  const failures: CheckFailure[] = [];
  for (const check of checksOf(level, minor)) {
    const f = check.run(spec, meta, minor);
    if (f) failures.push(f);
  }
  return failures;
}

/** `reason (detail), reason (detail)` as in the admission messages. */
export function failureText(failures: CheckFailure[], withDetails = true): string {
  return failures.map((f) => (withDetails && f.detail ? `${f.reason} (${f.detail})` : f.reason)).join(', ');
}
