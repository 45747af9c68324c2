/**
 * The PodSecurity admission plugin (1.32, no exemptions, defaults privileged): each namespace's labels
 * `pod-security.kubernetes.io/<mode>[-version]` choose a level for enforce (pods violating it are refused
 * with 403 "violates PodSecurity …"), warn (a Warning header "would violate PodSecurity …") and audit
 * (recorded nowhere: the local cluster keeps no audit log). Workload resources (Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, Job, CronJob, ReplicationController, PodTemplate) get warnings for their pod
 * template against the warn level, never a refusal. A namespace whose enforce level tightens gets
 * warnings naming its existing pods that violate the new level; invalid labels are refused (422).
 */
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { invalid, type FieldError } from '../../errors/field-errors.js';
import { invalidObject } from '../../errors/status-errors.js';
import { asStored } from '../../store/kube-object.js';
import type { KubeObject } from '../../store/object-store.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { type PodSecurityLevel, evaluatePodSecurity, failureText, podSecurityLevels } from '../pod-security-checks.js';
import { admissionForbidden } from './admission-errors.js';

const labelPrefix = 'pod-security.kubernetes.io/';
type Mode = 'enforce' | 'warn' | 'audit';

interface Policy {
  level: PodSecurityLevel;
  version: string;
}

const policyText = (p: Policy): string => `${p.level}:${p.version}`;

/** Where each workload kind keeps its pod template. */
const templatePaths: Record<string, string[]> = {
  'apps/deployments': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
  '/replicationcontrollers': ['spec', 'template'],
  '/podtemplates': ['template'],
};

function labelErrors(labels: Record<string, string>): FieldError[] {
  const errs: FieldError[] = [];
  for (const mode of ['enforce', 'warn', 'audit'] as Mode[]) {
    const level = labels[`${labelPrefix}${mode}`];
    if (level !== undefined && !podSecurityLevels.includes(level as PodSecurityLevel)) {
      errs.push(invalid(`metadata.labels[${labelPrefix}${mode}]`, level, `must be one of ${podSecurityLevels.join(', ')}`));
    }
    const version = labels[`${labelPrefix}${mode}-version`];
    if (version !== undefined && version !== 'latest' && !/^v1\.(0|[1-9][0-9]*)$/.test(version)) {
      errs.push(invalid(`metadata.labels[${labelPrefix}${mode}-version]`, version, 'must be "latest" or "v1.x"'));
    }
  }
  return errs;
}

function policyOf(labels: Record<string, string> | undefined, mode: Mode): Policy {
  const level = labels?.[`${labelPrefix}${mode}`];
  const version = labels?.[`${labelPrefix}${mode}-version`];
  return {
    level: podSecurityLevels.includes(level as PodSecurityLevel) ? (level as PodSecurityLevel) : 'privileged',
    version: version && (version === 'latest' || /^v1\.\d+$/.test(version)) ? version : 'latest',
  };
}

const samePolicy = (a: Policy, b: Policy): boolean => a.level === b.level && a.version === b.version;

function templateOf(object: KubeObject, path: string[]): PodTemplateSpec | undefined {
  let at: unknown = object;
  for (const p of path) at = at === null || at === undefined ? undefined : (at as Record<string, unknown>)[p];
  return at && typeof at === 'object' ? (at as PodTemplateSpec) : undefined;
}

/** Only image changes (and containers added) make a pod update worth a new evaluation (isSignificantPodUpdate). */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const images = (p: KubeObject): string =>
    JSON.stringify((['initContainers', 'containers', 'ephemeralContainers'] as const).map((f) => (asStored<Pod>(p).spec?.[f] ?? []).map((c: { image?: string } | undefined) => c?.image)));
  return images(pod) !== images(old);
}

export class PodSecurityAdmission implements AdmissionPlugin {
  constructor(private readonly services: AdmissionServices) {}

  validate(request: AdmissionRequest): string[] {
    if (request.operation === 'DELETE' || !request.object) return [];
    const { rt } = request;
    if (rt.group === '' && rt.resource === 'namespaces' && !request.subresource) return this.validateNamespace(request);
    if (!request.namespace) return [];
    if (rt.group === '' && rt.resource === 'pods') {
      if (request.subresource && request.subresource !== 'ephemeralcontainers') return [];
      if (request.operation === 'UPDATE' && request.oldObject && !request.subresource && !significantPodUpdate(request.object, request.oldObject)) return [];
      return this.validatePod(request);
    }
    const path = templatePaths[`${rt.group}/${rt.resource}`];
    if (!path || request.subresource) return [];
    return this.validateWorkload(request, path);
  }

  private namespaceLabels(namespace: string): Record<string, string> | undefined {
    return this.services.store.peek('namespaces', undefined, namespace)?.metadata.labels;
  }

  private validatePod(request: AdmissionRequest): string[] {
    const labels = this.namespaceLabels(request.namespace!);
    const enforce = policyOf(labels, 'enforce');
    const warn = policyOf(labels, 'warn');
    const pod = asStored<Pod>(request.object!);
    const enforced = evaluatePodSecurity(enforce.level, pod.spec, pod.metadata, enforce.version);
    if (enforced.length) throw admissionForbidden(request, [`violates PodSecurity ${JSON.stringify(policyText(enforce))}: ${failureText(enforced)}`]);
    if (samePolicy(warn, enforce)) return [];
    const warned = evaluatePodSecurity(warn.level, pod.spec, pod.metadata, warn.version);
    return warned.length ? [`would violate PodSecurity ${JSON.stringify(policyText(warn))}: ${failureText(warned)}`] : [];
  }

  /** Workloads: only the warn level is evaluated (enforce applies to the pods they create). */
  private validateWorkload(request: AdmissionRequest, path: string[]): string[] {
    const template = templateOf(request.object!, path);
    if (!template) return [];
    const warn = policyOf(this.namespaceLabels(request.namespace!), 'warn');
    if (warn.level === 'privileged') return [];
    const failures = evaluatePodSecurity(warn.level, template.spec, template.metadata ?? {}, warn.version);
    return failures.length ? [`would violate PodSecurity ${JSON.stringify(policyText(warn))}: ${failureText(failures)}`] : [];
  }

  private validateNamespace(request: AdmissionRequest): string[] {
    const ns = request.object!;
    const labels: Record<string, string> = ns.metadata.labels ?? {};
    const errs = labelErrors(labels);
    const old = request.operation === 'UPDATE' ? request.oldObject : undefined;
    // on update, labels already invalid before (and unchanged in their errors) are let through
    if (errs.length && (!old || JSON.stringify(labelErrors(old.metadata.labels ?? {})) !== JSON.stringify(errs))) {
      throw invalidObject('Namespace', '', ns.metadata.name ?? '', errs);
    }
    if (!old) return [];
    const enforce = policyOf(labels, 'enforce');
    const before = policyOf(old.metadata.labels, 'enforce');
    if (samePolicy(enforce, before) || enforce.level === 'privileged') return [];
    if (enforce.version === before.version && podSecurityLevels.indexOf(enforce.level) <= podSecurityLevels.indexOf(before.level)) return [];
    return this.existingPodWarnings(ns.metadata.name, enforce);
  }

  /** EvaluatePodsInNamespace: one line per distinct set of reasons, naming the first pod and how many others share it. */
  private existingPodWarnings(namespace: string, enforce: Policy): string[] {
    const byReasons = new Map<string, string[]>();
    for (const pod of this.services.store.listShared('pods', namespace)) {
      const failures = evaluatePodSecurity(enforce.level, asStored<Pod>(pod).spec, pod.metadata, enforce.version);
      if (failures.length === 0) continue;
      const key = failureText(failures, false);
      byReasons.set(key, [...(byReasons.get(key) ?? []), pod.metadata.name]);
    }
    if (byReasons.size === 0) return [];
    const lines = [...byReasons.entries()]
      .map(([reasons, pods]) => (pods.length === 1 ? `${pods[0]}: ${reasons}` : `${pods[0]} (and ${pods.length - 1} other ${pods.length === 2 ? 'pod' : 'pods'}): ${reasons}`))
      .sort();
    return [`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(policyText(enforce))}`, ...lines];
  }
}
