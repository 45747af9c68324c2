/**
 * The Pod Security Standards of Kubernetes 1.32 (k8s.io/pod-security-admission/policy) as checks over a
 * pod spec: the baseline set, and the restricted set on top of it (restricted checks replace their
 * baseline counterparts). Each failing check gives a reason and a detail worded as the real checks word
 * them; `evaluatePodSecurity` returns them in check-ID order, as PodSecurity admission prints them.
 * Every version label (`v1.25`, `latest`) is evaluated with the 1.32 checks.
 */
type Spec = Record<string, any>;
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
  run(spec: Spec, meta: Meta): CheckFailure | undefined;
}

interface NamedContainer {
  name: string;
  c: Spec;
}

function containersOf(spec: Spec): NamedContainer[] {
  const all = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  return all.filter((c) => c && typeof c === 'object').map((c) => ({ name: String(c.name ?? ''), c }));
}

const plural = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const joinQuote = (items: string[]): string => items.map((i) => JSON.stringify(i)).join(', ');
const withContainers = (names: string[]): string => `${plural('container', 'containers', names.length)} ${joinQuote(names)}`;
const unique = (items: string[]): string[] => [...new Set(items)];

const baselineCapabilities = ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT'];
const allowedSysctls = [
  'kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes',
];
const allowedVolumeTypes = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const allowedSeLinuxTypes = ['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'];

function volumeType(v: Spec): string | undefined {
  return Object.keys(v).find((k) => k !== 'name' && v[k] !== undefined && v[k] !== null);
}

const checks: Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    run(spec) {
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.allowPrivilegeEscalation !== false).map((x) => x.name);
      return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${withContainers(bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
    },
  },
  {
    id: 'appArmorProfile',
    level: 'baseline',
    run(spec, meta) {
      const bad: string[] = [];
      const okType = (t: unknown): boolean => t === undefined || t === 'RuntimeDefault' || t === 'Localhost';
      if (!okType(spec.securityContext?.appArmorProfile?.type)) bad.push(`pod must not set securityContext.appArmorProfile.type to ${JSON.stringify(spec.securityContext.appArmorProfile.type)}`);
      for (const { name, c } of containersOf(spec)) {
        if (!okType(c.securityContext?.appArmorProfile?.type)) bad.push(`container ${JSON.stringify(name)} must not set securityContext.appArmorProfile.type to ${JSON.stringify(c.securityContext.appArmorProfile.type)}`);
      }
      for (const [k, v] of Object.entries(meta.annotations ?? {})) {
        if (!k.startsWith('container.apparmor.security.beta.kubernetes.io/')) continue;
        if (v !== 'runtime/default' && !String(v).startsWith('localhost/')) bad.push(`${k}=${JSON.stringify(v)}`);
      }
      return bad.length ? { reason: `forbidden AppArmor ${plural('profile', 'profiles', bad.length)}`, detail: bad.join(', ') } : undefined;
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
      return names.length ? { reason: 'non-default capabilities', detail: `${withContainers(names)} must not include ${joinQuote(unique(caps))} in securityContext.capabilities.add` } : undefined;
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    overrides: 'capabilities_baseline',
    run(spec) {
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
      if (adders.length) details.push(`${withContainers(adders)} must not include ${joinQuote(unique(caps))} in securityContext.capabilities.add`);
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
      const bad = (spec.volumes ?? []).filter((v: Spec) => v?.hostPath).map((v: Spec) => String(v.name ?? ''));
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
        const hostPorts = (c.ports ?? []).map((p: Spec) => p?.hostPort).filter((p: unknown) => typeof p === 'number' && p !== 0);
        if (hostPorts.length) {
          names.push(name);
          ports.push(...hostPorts.map(String));
        }
      }
      const all = unique(ports);
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
      const values = unique(bad.map(({ c }) => String(c.securityContext.procMount)));
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
      const all = unique(types);
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
      const details: string[] = [];
      if (podValue === false) details.push('pod must not set securityContext.runAsNonRoot=false');
      const explicitFalse = containersOf(spec).filter(({ c }) => c.securityContext?.runAsNonRoot === false).map((x) => x.name);
      if (explicitFalse.length) details.push(`${withContainers(explicitFalse)} must not set securityContext.runAsNonRoot=false`);
      if (podValue !== true) {
        const implicit = containersOf(spec).filter(({ c }) => c.securityContext?.runAsNonRoot === undefined || c.securityContext?.runAsNonRoot === null).map((x) => x.name);
        if (implicit.length) details.push(`pod or ${withContainers(implicit)} must set securityContext.runAsNonRoot=true`);
      }
      return details.length ? { reason: 'runAsNonRoot != true', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    run(spec) {
      const details: string[] = [];
      if (spec.securityContext?.runAsUser === 0) details.push('pod must not set runAsUser=0');
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.runAsUser === 0).map((x) => x.name);
      if (bad.length) details.push(`${withContainers(bad)} must not set runAsUser=0`);
      return details.length ? { reason: 'runAsUser=0', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    run(spec) {
      const problems = (o: Spec | undefined): string[] => {
        if (!o) return [];
        const out: string[] = [];
        if (!allowedSeLinuxTypes.includes(o.type ?? '')) out.push(`type ${JSON.stringify(o.type)}`);
        if (o.user) out.push(`user ${JSON.stringify(o.user)}`);
        if (o.role) out.push(`role ${JSON.stringify(o.role)}`);
        return out;
      };
      const podProblems = problems(spec.securityContext?.seLinuxOptions);
      const bad = containersOf(spec).filter(({ c }) => problems(c.securityContext?.seLinuxOptions).length > 0);
      const all = unique([...podProblems, ...bad.flatMap(({ c }) => problems(c.securityContext.seLinuxOptions))]);
      if (all.length === 0) return undefined;
      const who = [podProblems.length ? 'pod' : '', bad.length ? withContainers(bad.map((x) => x.name)) : ''].filter(Boolean).join(' and ');
      return { reason: 'seLinuxOptions', detail: `${who} set forbidden securityContext.seLinuxOptions: ${all.join('; ')}` };
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    run(spec) {
      const details: string[] = [];
      if (spec.securityContext?.seccompProfile?.type === 'Unconfined') details.push('pod must not set securityContext.seccompProfile.type to "Unconfined"');
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.seccompProfile?.type === 'Unconfined').map((x) => x.name);
      if (bad.length) details.push(`${withContainers(bad)} must not set securityContext.seccompProfile.type to "Unconfined"`);
      return details.length ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    overrides: 'seccompProfile_baseline',
    run(spec) {
      const valid = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
      const details: string[] = [];
      const podType = spec.securityContext?.seccompProfile?.type;
      if (podType !== undefined && !valid(podType)) details.push(`pod must not set securityContext.seccompProfile.type to ${JSON.stringify(podType)}`);
      const badTypes: string[] = [];
      const bad: string[] = [];
      const unset: string[] = [];
      for (const { name, c } of containersOf(spec)) {
        const t = c.securityContext?.seccompProfile?.type;
        if (t === undefined) unset.push(name);
        else if (!valid(t)) {
          bad.push(name);
          badTypes.push(String(t));
        }
      }
      if (bad.length) details.push(`${withContainers(bad)} must not set securityContext.seccompProfile.type to ${joinQuote(unique(badTypes))}`);
      if (!valid(podType) && unset.length) details.push(`pod or ${withContainers(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
      return details.length ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'sysctls',
    level: 'baseline',
    run(spec) {
      const bad = (spec.securityContext?.sysctls ?? []).map((s: Spec) => String(s?.name ?? '')).filter((n: string) => !allowedSysctls.includes(n));
      return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
    },
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    run(spec) {
      const pod = spec.securityContext?.windowsOptions?.hostProcess === true;
      const bad = containersOf(spec).filter(({ c }) => c.securityContext?.windowsOptions?.hostProcess === true).map((x) => x.name);
      if (!pod && !bad.length) return undefined;
      const who = [pod ? 'pod' : '', bad.length ? withContainers(bad) : ''].filter(Boolean).join(' and ');
      return { reason: 'hostProcess', detail: `${who} must not set securityContext.windowsOptions.hostProcess=true` };
    },
  },
];

/** The checks of a level, restricted ones replacing the baseline checks they override, in ID order. */
function checksOf(level: PodSecurityLevel): Check[] {
  if (level === 'privileged') return [];
  const selected = checks.filter((c) => c.level === 'baseline' || level === 'restricted');
  const overridden = new Set(selected.map((c) => c.overrides).filter(Boolean));
  return selected.filter((c) => !overridden.has(c.id));
}

/** The failures of a pod spec (and its pod or template metadata) against a level. */
export function evaluatePodSecurity(level: PodSecurityLevel, spec: Spec | undefined, meta: Meta = {}): CheckFailure[] {
  if (!spec || typeof spec !== 'object') return [];
  const failures: CheckFailure[] = [];
  for (const check of checksOf(level)) {
    const f = check.run(spec, meta);
    if (f) failures.push(f);
  }
  return failures;
}

/** `reason (detail), reason (detail)` as in the admission messages. */
export function failureText(failures: CheckFailure[], withDetails = true): string {
  return failures.map((f) => (withDetails && f.detail ? `${f.reason} (${f.detail})` : f.reason)).join(', ');
}
