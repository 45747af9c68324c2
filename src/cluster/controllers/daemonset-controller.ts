/**
 * The DaemonSet controller (apps/v1, 1.32 behaviour of pkg/controller/daemon): one pod per Node the
 * template fits (nodeSelector, required node affinity, taints against its tolerations), each pinned by
 * the node affinity `matchFields metadata.name` the real controller writes and given the tolerations it
 * adds (not-ready, unreachable, disk/memory/pid pressure, unschedulable, network-unavailable for
 * hostNetwork); RollingUpdate with maxUnavailable/maxSurge or OnDelete; ControllerRevisions; and the
 * status kubectl rollout status reads. The scheduler places the pods (it must honour matchFields).
 */
import type { DaemonSet, DaemonSetStatus } from 'kubernetes-types/apps/v1.js';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, PodCondition, PodSpec, Taint, Toleration } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, NewKubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import { ensureUpdateRevision, revisionsOf, truncateHistory } from './controller-revisions.js';
import { claimDependents } from './controller-adoption.js';
import type { EventRecorder } from './event-recorder.js';
import type { OwnerIndex, OwnerReference } from './owner-index.js';
import { isRunningAndReady } from './statefulset-controller.js';
import { nodeSelectorTermMatches, tolerates } from './scheduler-plugins.js';
import { copyObject } from '../store/copy-object.js';

const dsKind = { apiVersion: 'apps/v1', kind: 'DaemonSet', hashLabel: 'controller-revision-hash' };
const templateGenerationLabel = 'pod-template-generation';

const isTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

const controllerOf = (o: KubeObject | undefined): OwnerReference | undefined =>
  (o?.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'DaemonSet' && r.apiVersion === 'apps/v1');

/** The tolerations the controller adds to every daemon pod (util.AddOrUpdateDaemonPodTolerations). */
export function daemonPodTolerations(hostNetwork: boolean): Toleration[] {
  const t = (key: string, effect: string): Toleration => ({ key: `node.kubernetes.io/${key}`, operator: 'Exists', effect });
  return [
    t('not-ready', 'NoExecute'), t('unreachable', 'NoExecute'), t('disk-pressure', 'NoSchedule'), t('memory-pressure', 'NoSchedule'),
    t('pid-pressure', 'NoSchedule'), t('unschedulable', 'NoSchedule'), ...(hostNetwork ? [t('network-unavailable', 'NoSchedule')] : []),
  ];
}

/** Whether the daemon pod template may run on `node` (NodeShouldRunDaemonPod's predicates). */
export function shouldRunOn(template: { spec?: Partial<PodSpec> } | undefined, node: Stored<Node>): boolean {
  const spec: Partial<PodSpec> = template?.spec ?? {};
  const labels: Record<string, string> = node.metadata.labels ?? {};
  if (!Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v)) return false;
  const terms: NodeSelectorTerm[] = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length > 0 && !terms.some((t) => nodeSelectorTermMatches(t, node))) return false;
  const tolerations = [...(spec.tolerations ?? []), ...daemonPodTolerations(spec.hostNetwork === true)];
  const taints: Taint[] = node.spec?.taints ?? [];
  return taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute').every((t) => tolerates(tolerations, t));
}

/** The node a daemon pod is for: its nodeName, else the matchFields metadata.name of its affinity. */
export function daemonPodNode(pod: Stored<Pod>): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    const field = (term.matchFields ?? []).find((f: NodeSelectorRequirement) => f.key === 'metadata.name' && f.operator === 'In');
    if (field?.values?.length === 1) return field.values[0];
  }
  return undefined;
}

/** Percent or absolute of `total`, rounded up (maxUnavailable/maxSurge as the controller scales them). */
function scaledValue(value: number | string | undefined, total: number): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : Number(value) || 0;
}

export class DaemonSetController implements BuiltinController {
  readonly name = 'daemonset-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events: EventRecorder, private readonly owners: OwnerIndex) {}

  initialKeys(): string[] {
    return this.client.list('apps/daemonsets').map((d) => `${d.metadata.namespace}/${d.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'daemonsets.apps') return event.type === 'DELETED' ? [] : [`${event.object.metadata.namespace}/${event.object.metadata.name}`];
    if (event.bucket === 'nodes') return this.initialKeys();
    if (event.bucket !== 'pods') return [];
    const owner = controllerOf(event.object) ?? controllerOf(event.oldObject);
    return owner ? [`${event.object.metadata.namespace}/${owner.name}`] : [];
  }

  private podsOf(ds: Stored<DaemonSet>): Array<Stored<Pod>> {
    return this.owners
      .dependentsIn(ds.metadata.uid!, 'pods')
      .map((l) => this.client.get('pods', l.namespace, l.name))
      .filter((p): p is KubeObject => p !== undefined && controllerOf(p)?.uid === ds.metadata.uid);
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get('apps/daemonsets', namespace, name);
    const ds = stored && asStored<DaemonSet>(stored);
    if (!ds || ds.metadata.deletionTimestamp) return;
    claimDependents(this.client, 'pods', ds, dsKind);
    claimDependents(this.client, 'apps/controllerrevisions', ds, dsKind);
    const revision = ensureUpdateRevision(this.client, ds, dsKind, revisionsOf(this.client, this.owners, ds));
    const hash: string = revision.metadata.labels?.[dsKind.hashLabel] ?? '';
    const requeue = this.manage(ds, hash) ?? this.nextAvailability(ds);
    this.writeStatus(ds, hash);
    const live = new Set(this.podsOf(ds).map((p) => `${ds.metadata.name}-${p.metadata.labels?.[dsKind.hashLabel] ?? ''}`));
    live.add(revision.metadata.name);
    truncateHistory(this.client, revisionsOf(this.client, this.owners, ds), live, ds.spec?.revisionHistoryLimit ?? 10);
    return requeue;
  }

  private isAvailable(ds: Stored<DaemonSet>, pod: Stored<Pod>): boolean {
    if (!isRunningAndReady(pod) || pod.metadata.deletionTimestamp) return false;
    const minReady = (ds.spec?.minReadySeconds ?? 0) * 1000;
    const ready = (pod.status?.conditions ?? []).find((c: PodCondition) => c.type === 'Ready');
    return minReady === 0 || Date.parse(ready?.lastTransitionTime ?? '') + minReady <= this.clock.now();
  }

  /** When a ready pod not yet available (minReadySeconds) becomes available: look again then. */
  private nextAvailability(ds: Stored<DaemonSet>): ReconcileResult | void {
    const minReady = (ds.spec?.minReadySeconds ?? 0) * 1000;
    if (minReady === 0) return;
    const due = this.podsOf(ds)
      .filter((p) => isRunningAndReady(p) && !this.isAvailable(ds, p))
      .map((p) => Date.parse((p.status?.conditions ?? []).find((c: PodCondition) => c.type === 'Ready')?.lastTransitionTime ?? '') + minReady);
    if (due.length) return { requeueAfterMs: Math.max(0, Math.min(...due) - this.clock.now()) };
  }

  /** Pods per node: create where missing, delete where they should not run, then roll. */
  private manage(ds: Stored<DaemonSet>, hash: string): ReconcileResult | void {
    const nodes = this.client.list('nodes');
    const pods = this.podsOf(ds);
    const byNode = new Map<string, KubeObject[]>();
    for (const pod of pods) {
      const node = daemonPodNode(pod) ?? '';
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    for (const node of nodes) {
      const all = byNode.get(node.metadata.name) ?? [];
      const here = all.filter((p) => !p.metadata.deletionTimestamp);
      const run = shouldRunOn(ds.spec?.template, node);
      if (!run) {
        for (const pod of here) this.deletePod(ds, pod);
        continue;
      }
      for (const pod of here) if (isTerminal(pod)) this.deletePod(ds, pod);
      const alive = here.filter((p) => !isTerminal(p));
      // a pod still terminating on the node blocks its replacement, as upstream
      if (all.length === 0) this.createPod(ds, node.metadata.name, hash);
      else if (alive.length > 1 && alive.every((p) => p.metadata.labels?.[dsKind.hashLabel] === hash)) {
        // duplicates: keep the oldest
        const sorted = [...alive].sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
        for (const extra of sorted.slice(1)) this.deletePod(ds, extra);
      }
    }
    for (const [node, list] of byNode) if (!nodes.some((n) => n.metadata.name === node)) for (const pod of list) if (!pod.metadata.deletionTimestamp) this.deletePod(ds, pod);
    if (ds.spec?.updateStrategy?.type === 'RollingUpdate') return this.rollingUpdate(ds, hash, nodes.filter((n) => shouldRunOn(ds.spec?.template, n)));
  }

  /** Replaces old pods: at most maxUnavailable nodes without an available pod, maxSurge extra new pods. */
  private rollingUpdate(ds: Stored<DaemonSet>, hash: string, nodes: KubeObject[]): ReconcileResult | void {
    const rolling = ds.spec!.updateStrategy!.rollingUpdate ?? {}; // called for the RollingUpdate strategy
    const maxUnavailable = scaledValue(rolling.maxUnavailable ?? 1, nodes.length);
    const maxSurge = scaledValue(rolling.maxSurge ?? 0, nodes.length);
    const pods = this.podsOf(ds).filter((p) => !isTerminal(p));
    let unavailable = 0;
    let surging = 0;
    const candidates: Array<{ node: string; old: KubeObject; fresh?: KubeObject }> = [];
    for (const node of nodes) {
      const here = pods.filter((p) => daemonPodNode(p) === node.metadata.name);
      const fresh = here.find((p) => p.metadata.labels?.[dsKind.hashLabel] === hash && !p.metadata.deletionTimestamp);
      const old = here.filter((p) => p.metadata.labels?.[dsKind.hashLabel] !== hash && !p.metadata.deletionTimestamp);
      const available = here.some((p) => this.isAvailable(ds, p));
      if (!available) unavailable++;
      if (fresh && old.length) surging++;
      for (const o of old) candidates.push({ node: node.metadata.name, old: o, ...(fresh ? { fresh } : {}) });
    }
    for (const c of candidates) {
      if (c.fresh) {
        // a surge pod stands beside the old one: the old one goes once the new one is available
        if (this.isAvailable(ds, c.fresh)) this.deletePod(ds, c.old);
        continue;
      }
      if (!this.isAvailable(ds, c.old)) {
        this.deletePod(ds, c.old);
        continue;
      }
      if (maxSurge > 0) {
        if (surging < maxSurge) {
          surging++;
          this.createPod(ds, c.node, hash);
        }
      } else if (unavailable < maxUnavailable) {
        unavailable++;
        this.deletePod(ds, c.old);
      }
    }
  }

  private createPod(ds: Stored<DaemonSet>, nodeName: string, hash: string): void {
    const template = copyObject(ds.spec?.template ?? {});
    const spec: Partial<PodSpec> = template.spec ?? {};
    const nodeAffinity = (spec.affinity ??= {}).nodeAffinity ??= {};
    const required = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= { nodeSelectorTerms: [] });
    const pinned = { key: 'metadata.name', operator: 'In', values: [nodeName] };
    const terms: NodeSelectorTerm[] = required.nodeSelectorTerms ?? [];
    // ReplaceDaemonSetPodNodeNameNodeAffinity: every term's matchFields become the one node
    required.nodeSelectorTerms = terms.length === 0 ? [{ matchFields: [pinned] }] : terms.map((t) => ({ ...t, matchFields: [pinned] }));
    const added = daemonPodTolerations(spec.hostNetwork === true).filter((t) => !(spec.tolerations ?? []).some((x: Toleration) => x.key === t.key && x.effect === t.effect));
    spec.tolerations = [...(spec.tolerations ?? []), ...added];
    const pod: NewKubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${ds.metadata.name}-`,
        namespace: ds.metadata.namespace,
        labels: { ...(template.metadata?.labels ?? {}), [dsKind.hashLabel]: hash, [templateGenerationLabel]: String(ds.metadata.generation ?? 1) },
        ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, uid: ds.metadata.uid!, controller: true, blockOwnerDeletion: true }],
      },
      spec,
    };
    const created = this.client.create('pods', ds.metadata.namespace, pod);
    this.events.record(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  }

  private deletePod(ds: Stored<DaemonSet>, pod: Stored<Pod>): void {
    this.client.delete('pods', pod.metadata.namespace, pod.metadata.name);
    this.events.record(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
  }

  private writeStatus(ds: Stored<DaemonSet>, hash: string): void {
    const stored = this.client.get('apps/daemonsets', ds.metadata.namespace, ds.metadata.name);
    if (!stored) return;
    const fresh = asStored<DaemonSet>(stored);
    const nodes = this.client.list('nodes');
    const pods = this.podsOf(fresh).filter((p) => !isTerminal(p));
    let desired = 0, current = 0, misscheduled = 0, ready = 0, available = 0, updated = 0;
    for (const node of nodes) {
      const here = pods.filter((p) => daemonPodNode(p) === node.metadata.name);
      const run = shouldRunOn(fresh.spec?.template, node);
      if (!run) {
        if (here.length) misscheduled++;
        continue;
      }
      desired++;
      if (here.length === 0) continue;
      current++;
      if (here.some((p) => isRunningAndReady(p))) ready++;
      if (here.some((p) => this.isAvailable(fresh, p))) available++;
      if (here.some((p) => p.metadata.labels?.[dsKind.hashLabel] === hash && !p.metadata.deletionTimestamp)) updated++;
    }
    const status: DaemonSetStatus = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
      observedGeneration: fresh.metadata.generation,
      ...(updated ? { updatedNumberScheduled: updated } : {}),
      ...(available ? { numberAvailable: available } : {}),
      ...(desired - available > 0 ? { numberUnavailable: desired - available } : {}),
    };
    if (fresh.status?.collisionCount !== undefined) status.collisionCount = fresh.status.collisionCount;
    if (fresh.status?.conditions) status.conditions = fresh.status.conditions;
    if (JSON.stringify(status) === JSON.stringify(fresh.status ?? {})) return;
    this.client.updateStatus('apps/daemonsets', { ...fresh, status });
  }
}
