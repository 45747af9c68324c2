/**
 * The Deployment controller (kube-controller-manager 1.32, pkg/controller/deployment): owns ReplicaSets
 * named `<deployment>-<pod-template-hash>`, rolls out with RollingUpdate (maxSurge/maxUnavailable) or
 * Recreate, scales proportionally, keeps revision annotations and revisionHistoryLimit, honours `paused`,
 * and reports observedGeneration, replica counts and the Progressing/Available conditions with the real
 * reasons, messages and ScalingReplicaSet events.
 */
import type { ReplicaSet, ReplicaSetCondition, ReplicaSetSpec } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/status-errors.js';
import { AdmissionPending } from '../admission/controller-admission.js';
import { deepEqual } from '../registry/system-metadata.js';
import { isEmptySelector, selectorMatches } from '../selectors/label-selector-object.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { computeHash } from './pod-template-hash.js';
import {
  type RS, active, annotations, byCreation, equalIgnoreHash, hashLabel, numberAnnotation, replicasOf, revisionOf, setNewReplicaSetAnnotations, setReplicasAnnotations, sum,
} from './deployment-revisions.js';
import {
  type DefaultedDeployment, type DeploymentStatus, type StoredDeployment, calculateStatus, condition, deploymentComplete, deploymentProgressing, deploymentTimedOut, getCondition, hasProgressDeadline, reasons, removeCondition, setCondition,
} from './deployment-conditions.js';
import { controllerRefOf } from './replica-set-controller.js';
import { maxSurge, maxUnavailable, newReplicaSetSize, replicaSetProportion } from './rollout-arithmetic.js';
import { copyObject } from '../store/copy-object.js';

/** One reconcile's view of the Deployment, refreshed after each write. */
interface Run {
  d: StoredDeployment;
  now: number;
}

export class DeploymentController implements BuiltinController {
  readonly name = 'deployment-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events: EventRecorder) {}

  initialKeys(): string[] {
    return this.client.list('apps/deployments').map((d) => `${d.metadata.namespace}/${d.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    const { object, oldObject } = event;
    if (event.bucket === 'deployments.apps') return event.type === 'DELETED' ? [] : [`${object.metadata.namespace}/${object.metadata.name}`];
    if (event.bucket === 'replicasets.apps') {
      const keys = new Set<string>();
      for (const rs of [object, oldObject]) {
        const ref = controllerRefOf(rs);
        if (ref?.kind === 'Deployment') keys.add(`${rs!.metadata.namespace}/${ref.name}`);
      }
      if (event.type !== 'DELETED' && !controllerRefOf(object)) {
        for (const d of this.client.listShared('apps/deployments', object.metadata.namespace) as StoredDeployment[]) {
          if (!isEmptySelector(d.spec?.selector) && selectorMatches(d.spec?.selector, object.metadata.labels)) keys.add(`${d.metadata.namespace}/${d.metadata.name}`);
        }
      }
      return [...keys];
    }
    // Recreate waits for old pods to be gone
    if (event.bucket === 'pods' && event.type === 'DELETED') {
      const rsRef = controllerRefOf(object);
      if (rsRef?.kind !== 'ReplicaSet') return [];
      const rs = this.client.get('apps/replicasets', object.metadata.namespace, rsRef.name);
      const dRef = controllerRefOf(rs);
      return dRef?.kind === 'Deployment' ? [`${object.metadata.namespace}/${dRef.name}`] : [];
    }
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get('apps/deployments', namespace, name);
    if (!stored) return;
    const d = asStored<DefaultedDeployment>(stored);
    const run: Run = { d, now: this.clock.now() };
    if (isEmptySelector(d.spec?.selector)) {
      this.events.record(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < d.metadata.generation!) this.writeStatus(run, { ...(d.status ?? {}), observedGeneration: d.metadata.generation });
      return;
    }
    const rsList = this.claimReplicaSets(d);
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(run, rsList);
    this.checkPausedConditions(run);
    if (run.d.spec?.paused) return this.sync(run, rsList, true);
    if (this.isScalingEvent(run, rsList)) return this.sync(run, rsList, false);
    return run.d.spec?.strategy?.type === 'Recreate' ? this.rolloutRecreate(run, rsList) : this.rolloutRolling(run, rsList);
  }

  // ---- ownership ----

  /** The Deployment's ReplicaSets: adopts matching orphans, releases controlled ones that stop matching. */
  private claimReplicaSets(d: StoredDeployment): RS[] {
    const claimed: RS[] = [];
    for (const rs of this.client.list('apps/replicasets', d.metadata.namespace)) {
      const ref = controllerRefOf(rs);
      const matches = selectorMatches(d.spec.selector, rs.metadata.labels);
      if (ref?.uid === d.metadata.uid) {
        if (matches || d.metadata.deletionTimestamp) claimed.push(rs);
        else {
          const copy = copyObject(rs);
          copy.metadata.ownerReferences = copy.metadata.ownerReferences!.filter((r) => r.uid !== d.metadata.uid);
          this.tryUpdate(() => this.client.update('apps/replicasets', copy));
        }
      } else if (!ref && matches && !d.metadata.deletionTimestamp && !rs.metadata.deletionTimestamp) {
        const copy = copyObject(rs);
        copy.metadata.ownerReferences = [...(copy.metadata.ownerReferences ?? []), this.ownerReference(d)];
        const adopted = this.tryUpdate(() => this.client.update('apps/replicasets', copy));
        if (adopted) claimed.push(adopted);
      }
    }
    return claimed;
  }

  private ownerReference(d: StoredDeployment): OwnerReference {
    return { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true };
  }

  private tryUpdate(write: () => KubeObject): KubeObject | undefined {
    try {
      return write();
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return undefined;
      throw err;
    }
  }

  // ---- the three paths: sync (scale/paused), rolling, recreate ----

  private sync(run: Run, rsList: RS[], paused: boolean): ReconcileResult | void {
    const { newRS, oldRSs } = this.allReplicaSets(run, rsList, false);
    this.scale(run, newRS, oldRSs);
    if (paused) this.cleanup(run, oldRSs);
    return this.syncDeploymentStatus(run, this.refreshed([...oldRSs, ...(newRS ? [newRS] : [])]), newRS && this.refresh(newRS));
  }

  /** syncStatusOnly: a Deployment being deleted only reports; nothing is scaled or created. */
  private syncStatusOnly(run: Run, rsList: RS[]): ReconcileResult | void {
    const { newRS, oldRSs } = this.allReplicaSets(run, rsList, false);
    return this.syncDeploymentStatus(run, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  private rolloutRolling(run: Run, rsList: RS[]): ReconcileResult | void {
    const { newRS, oldRSs } = this.allReplicaSets(run, rsList, true);
    if (!newRS) return this.syncRolloutStatus(run, oldRSs, undefined);
    const all = [...oldRSs, newRS];
    if (this.reconcileNewReplicaSet(run, all, newRS)) return this.syncRolloutStatus(run, this.refreshed(all), this.refresh(newRS));
    if (this.reconcileOldReplicaSets(run, this.refreshed(all), active(this.refreshed(oldRSs)), this.refresh(newRS)!)) {
      return this.syncRolloutStatus(run, this.refreshed(all), this.refresh(newRS));
    }
    if (deploymentComplete(run.d, run.d.status ?? {})) this.cleanup(run, this.refreshed(oldRSs));
    return this.syncRolloutStatus(run, this.refreshed(all), this.refresh(newRS));
  }

  private rolloutRecreate(run: Run, rsList: RS[]): ReconcileResult | void {
    let { newRS, oldRSs } = this.allReplicaSets(run, rsList, false);
    const all = (): RS[] => this.refreshed([...oldRSs, ...(newRS ? [newRS] : [])]);
    let scaledDown = false;
    for (const rs of active(oldRSs)) scaledDown = this.scaleReplicaSet(run, rs, 0) || scaledDown;
    if (scaledDown) return this.syncRolloutStatus(run, all(), newRS && this.refresh(newRS));
    if (this.oldPodsRunning(run.d, newRS, this.refreshed(oldRSs))) return this.syncRolloutStatus(run, all(), newRS && this.refresh(newRS));
    if (!newRS) ({ newRS, oldRSs } = this.allReplicaSets(run, this.claimReplicaSets(run.d), true));
    if (newRS && replicasOf(newRS) !== run.d.spec.replicas) this.scaleReplicaSet(run, newRS, run.d.spec.replicas);
    if (deploymentComplete(run.d, run.d.status ?? {})) this.cleanup(run, this.refreshed(oldRSs));
    return this.syncRolloutStatus(run, all(), newRS && this.refresh(newRS));
  }

  private oldPodsRunning(d: StoredDeployment, newRS: RS | undefined, oldRSs: RS[]): boolean {
    if (sum(oldRSs, (rs) => rs.status?.replicas ?? 0) > 0) return true;
    const owned = new Set(oldRSs.map((rs) => rs.metadata.uid));
    return (this.client.listShared('pods', d.metadata.namespace) as Array<Stored<Pod>>).some((pod) => {
      const ref = controllerRefOf(pod);
      if (!ref || ref.uid === newRS?.metadata.uid || !owned.has(ref.uid)) return false;
      return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
    });
  }

  private refresh(rs: RS | undefined): RS | undefined {
    return rs && (this.client.get('apps/replicasets', rs.metadata.namespace, rs.metadata.name) ?? rs);
  }

  private refreshed(list: RS[]): RS[] {
    return list.map((rs) => this.refresh(rs)!);
  }

  // ---- new and old ReplicaSets ----

  private allReplicaSets(run: Run, rsList: RS[], createIfMissing: boolean): { newRS: RS | undefined; oldRSs: RS[] } {
    const sorted = [...rsList].sort(byCreation);
    const existing = sorted.find((rs) => equalIgnoreHash(rs.spec?.template, run.d.spec?.template));
    const oldRSs = sorted.filter((rs) => rs !== existing);
    const newRS = this.newReplicaSet(run, existing, oldRSs, createIfMissing);
    return { newRS, oldRSs };
  }

  private newReplicaSet(run: Run, existing: RS | undefined, oldRSs: RS[], createIfMissing: boolean): RS | undefined {
    const d = run.d;
    const newRevision = String(Math.max(0, ...oldRSs.map(revisionOf)) + 1);
    if (existing) {
      const copy = copyObject(existing);
      const changed = setNewReplicaSetAnnotations(d, copy, newRevision, true);
      if (changed || (copy.spec!.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
        copy.spec!.minReadySeconds = d.spec.minReadySeconds;
        if (copy.spec!.minReadySeconds === undefined) delete copy.spec!.minReadySeconds;
        return this.client.update('apps/replicasets', copy);
      }
      this.setDeploymentRevision(run, copy.metadata.annotations?.[annotations.revision]);
      if (hasProgressDeadline(run.d) && !getCondition(run.d.status, 'Progressing')) {
        const status = copyObject(run.d.status ?? {});
        setCondition(status, condition('Progressing', 'True', reasons.foundNewRS, `Found new replica set "${copy.metadata.name}"`, run.now));
        this.writeStatus(run, status);
      }
      return copy;
    }
    if (!createIfMissing) return undefined;

    const template = copyObject(d.spec.template ?? {});
    const hash = computeHash(template, d.status?.collisionCount);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [hashLabel]: hash } };
    const selector = copyObject(d.spec.selector);
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [hashLabel]: hash };
    const rsName = `${d.metadata.name}-${hash}`;
    const spec: ReplicaSetSpec = { replicas: 0, selector, template };
    const body: RS = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: rsName, namespace: d.metadata.namespace, labels: { ...template.metadata.labels }, ownerReferences: [this.ownerReference(d)] },
      spec,
    };
    if (d.spec.minReadySeconds) spec.minReadySeconds = d.spec.minReadySeconds;
    const replicas = newReplicaSetSize(d.spec.replicas, d.spec.strategy, sum(oldRSs, replicasOf), 0);
    spec.replicas = replicas;
    setNewReplicaSetAnnotations(d, body, newRevision, false);
    let createdRS: RS;
    let alreadyExisted = false;
    try {
      createdRS = this.client.create('apps/replicasets', d.metadata.namespace, body);
    } catch (err) {
      if (err instanceof AdmissionPending) throw err;
      if (err instanceof ApiError && err.code === 409) {
        const found = this.client.get('apps/replicasets', d.metadata.namespace, rsName);
        if (found && controllerRefOf(found)?.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, asStored<ReplicaSet>(found).spec?.template)) {
          createdRS = found;
          alreadyExisted = true;
        } else {
          // a hash collision: bump collisionCount and try again with the next hash
          this.writeStatus(run, { ...(run.d.status ?? {}), collisionCount: (run.d.status?.collisionCount ?? 0) + 1 });
          throw err;
        }
      } else {
        if (err instanceof ApiError && (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')) throw err;
        const message = `Failed to create new replica set "${rsName}": ${(err as Error).message}`;
        if (hasProgressDeadline(d)) {
          const status = copyObject(run.d.status ?? {});
          setCondition(status, condition('Progressing', 'False', reasons.failedCreate, message, run.now));
          this.writeStatus(run, status);
        }
        this.events.record(d, 'Warning', reasons.failedCreate, message);
        throw err;
      }
    }
    if (!alreadyExisted && replicas > 0) this.events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${createdRS.metadata.name} from 0 to ${replicas}`);
    this.setDeploymentRevision(run, newRevision);
    if (!alreadyExisted && hasProgressDeadline(d)) {
      const status = copyObject(run.d.status ?? {});
      setCondition(status, condition('Progressing', 'True', reasons.newRS, `Created new replica set "${createdRS.metadata.name}"`, run.now));
      this.writeStatus(run, status);
    }
    return createdRS;
  }

  /** SetDeploymentRevision: the Deployment's own revision annotation follows its new ReplicaSet. */
  private setDeploymentRevision(run: Run, revision: string | undefined): void {
    if (revision === undefined || run.d.metadata.annotations?.[annotations.revision] === revision) return;
    const next = copyObject(run.d);
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [annotations.revision]: revision };
    const written = this.tryUpdate(() => this.client.update('apps/deployments', next));
    if (written) run.d = asStored<DefaultedDeployment>(written);
  }

  // ---- scaling ----

  /** scaleReplicaSetAndRecordEvent / scaleReplicaSet: size and replica annotations; an event when the size changes. */
  private scaleReplicaSet(run: Run, rsIn: RS, newScale: number, operation?: 'up' | 'down'): boolean {
    const rs = this.refresh(rsIn)!;
    const d = run.d;
    const oldScale = replicasOf(rs);
    const sizeChanges = oldScale !== newScale;
    const copy = copyObject(rs);
    const annotationsChange = setReplicasAnnotations(copy, d.spec.replicas, d.spec.replicas + maxSurge(d.spec.replicas, d.spec.strategy));
    if (!sizeChanges && !annotationsChange) return false;
    copy.spec!.replicas = newScale;
    const written = this.client.update('apps/replicasets', copy);
    if (!sizeChanges) return false;
    const verb = operation ?? (oldScale < newScale ? 'up' : 'down');
    this.events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled ${verb} replica set ${written.metadata.name} from ${oldScale} to ${newScale}`);
    return true;
  }

  private reconcileNewReplicaSet(run: Run, all: RS[], newRS: RS): boolean {
    const want: number = run.d.spec.replicas;
    if (replicasOf(newRS) === want) return false;
    if (replicasOf(newRS) > want) return this.scaleReplicaSet(run, newRS, want);
    return this.scaleReplicaSet(run, newRS, newReplicaSetSize(want, run.d.spec.strategy, sum(all, replicasOf), replicasOf(newRS)));
  }

  private reconcileOldReplicaSets(run: Run, all: RS[], oldRSs: RS[], newRS: RS): boolean {
    const d = run.d;
    if (sum(oldRSs, replicasOf) === 0) return false;
    const minAvailable = d.spec.replicas - maxUnavailable(d.spec.replicas, d.spec.strategy);
    const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = sum(all, replicasOf) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    // unhealthy old replicas first, so they cannot block the rollout
    let cleaned = 0;
    const sortedOld = [...oldRSs].sort(byCreation);
    for (const rs of sortedOld) {
      if (cleaned >= maxScaledDown) break;
      const size = replicasOf(rs);
      const availableCount = rs.status?.availableReplicas ?? 0;
      if (size === 0 || size === availableCount) continue;
      const down = Math.min(maxScaledDown - cleaned, size - availableCount);
      this.scaleReplicaSet(run, rs, size - down);
      cleaned += down;
    }
    const afterCleanup = this.refreshed(sortedOld);
    const allNow = [...afterCleanup, this.refresh(newRS)!];
    const availableNow = sum(allNow, (rs) => rs.status?.availableReplicas ?? 0);
    let scaledDown = 0;
    if (availableNow > minAvailable) {
      const toScaleDown = availableNow - minAvailable;
      for (const rs of afterCleanup) {
        if (scaledDown >= toScaleDown) break;
        if (replicasOf(rs) === 0) continue;
        const down = Math.min(replicasOf(rs), toScaleDown - scaledDown);
        this.scaleReplicaSet(run, rs, replicasOf(rs) - down);
        scaledDown += down;
      }
    }
    return cleaned + scaledDown > 0;
  }

  private isScalingEvent(run: Run, rsList: RS[]): boolean {
    const { newRS, oldRSs } = this.allReplicaSets(run, rsList, false);
    return active([...oldRSs, newRS]).some((rs) => {
      const desired = numberAnnotation(rs, annotations.desiredReplicas);
      return desired !== undefined && desired !== run.d.spec.replicas;
    });
  }

  /** dc.scale: the only active ReplicaSet takes the full count; otherwise a rolling Deployment scales proportionally. */
  private scale(run: Run, newRS: RS | undefined, oldRSsIn: RS[]): void {
    const d = run.d;
    const want: number = d.spec.replicas;
    const oldRSs = this.refreshed(oldRSsIn);
    const newest = [...oldRSs].sort((a, b) => byCreation(b, a));
    const activeAll = active([...newest, newRS && this.refresh(newRS)]);
    const activeOrLatest = activeAll.length === 1 ? activeAll[0] : activeAll.length === 0 && (newRS || newest.length) ? newRS ?? newest[0] : undefined;
    if (activeOrLatest) {
      if (replicasOf(activeOrLatest) !== want) this.scaleReplicaSet(run, activeOrLatest, want);
      return;
    }
    const fresh = newRS && this.refresh(newRS);
    const saturated = fresh && numberAnnotation(fresh, annotations.desiredReplicas) === want && replicasOf(fresh) === want && (fresh.status?.availableReplicas ?? 0) === want;
    if (saturated) {
      for (const rs of active(oldRSs)) this.scaleReplicaSet(run, rs, 0);
      return;
    }
    if (d.spec.strategy?.type !== 'RollingUpdate') return;
    const all = activeAll;
    const surge = maxSurge(want, d.spec.strategy);
    const allowed = want > 0 ? want + surge : 0;
    const toAdd = allowed - sum(all, replicasOf);
    let operation: 'up' | 'down' | undefined;
    if (toAdd > 0) {
      // larger first; for equal sizes newer first
      all.sort((a, b) => replicasOf(b) - replicasOf(a) || byCreation(b, a));
      operation = 'up';
    } else if (toAdd < 0) {
      // larger first; for equal sizes older first
      all.sort((a, b) => replicasOf(b) - replicasOf(a) || byCreation(a, b));
      operation = 'down';
    }
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of all) {
      if (toAdd !== 0) {
        const proportion = replicaSetProportion(replicasOf(rs), numberAnnotation(rs, annotations.maxReplicas), want, want + surge, d.status?.replicas ?? 0, toAdd, added);
        sizes.set(rs.metadata.name, replicasOf(rs) + proportion);
        added += proportion;
      } else sizes.set(rs.metadata.name, replicasOf(rs));
    }
    all.forEach((rs, i) => {
      if (i === 0 && toAdd !== 0) sizes.set(rs.metadata.name, Math.max(0, sizes.get(rs.metadata.name)! + toAdd - added));
      this.scaleReplicaSet(run, rs, sizes.get(rs.metadata.name)!, operation);
    });
  }

  /** cleanupDeployment: deletes the oldest fully scaled-down ReplicaSets beyond revisionHistoryLimit. */
  private cleanup(run: Run, oldRSs: RS[]): void {
    const limit = run.d.spec.revisionHistoryLimit;
    if (limit === undefined || limit === null) return;
    const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = alive.length - limit;
    if (diff <= 0) return;
    const byRevision = [...alive].sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    for (const rs of byRevision.slice(0, diff)) {
      if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        this.client.delete('apps/replicasets', rs.metadata.namespace, rs.metadata.name);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
  }

  // ---- status ----

  private checkPausedConditions(run: Run): void {
    const d = run.d;
    if (!hasProgressDeadline(d)) return;
    const cond = getCondition(d.status, 'Progressing');
    if (cond?.reason === reasons.timedOut) return;
    const pausedCondition = cond?.reason === reasons.paused;
    const status = copyObject(d.status ?? {});
    if (d.spec.paused && !pausedCondition) setCondition(status, condition('Progressing', 'Unknown', reasons.paused, 'Deployment is paused', run.now));
    else if (!d.spec.paused && pausedCondition) setCondition(status, condition('Progressing', 'Unknown', reasons.resumed, 'Deployment is resumed', run.now));
    else return;
    this.writeStatus(run, status);
  }

  private syncDeploymentStatus(run: Run, all: RS[], newRS: RS | undefined): ReconcileResult | void {
    const status = calculateStatus(run.d, all, newRS, run.now);
    if (!deepEqual(run.d.status ?? {}, status)) this.writeStatus(run, status);
  }

  private syncRolloutStatus(run: Run, all: RS[], newRS: RS | undefined): ReconcileResult | void {
    const d = run.d;
    const status = calculateStatus(run.d, all, newRS, run.now);
    if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
    const current = getCondition(d.status, 'Progressing');
    const completeRollout = (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === reasons.available;
    if (hasProgressDeadline(d) && !completeRollout) {
      const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
      if (deploymentComplete(d, status)) {
        setCondition(status, condition('Progressing', 'True', reasons.available, `${subject} has successfully progressed.`, run.now));
      } else if (deploymentProgressing(d, status)) {
        const next = condition('Progressing', 'True', reasons.updated, `${subject} is progressing.`, run.now);
        if (current) {
          if (current.status === 'True') next.lastTransitionTime = current.lastTransitionTime;
          removeCondition(status, 'Progressing');
        }
        setCondition(status, next);
      } else if (deploymentTimedOut(d, status, run.now)) {
        setCondition(status, condition('Progressing', 'False', reasons.timedOut, `${subject} has timed out progressing.`, run.now));
      }
    }
    // getReplicaFailures: the new ReplicaSet's failure first, else an old one's
    const failure = [newRS, ...all].map((rs) => (rs?.status?.conditions ?? []).find((c: ReplicaSetCondition) => c.type === 'ReplicaFailure')).find(Boolean);
    if (failure) setCondition(status, { type: 'ReplicaFailure', status: failure.status, lastUpdateTime: failure.lastTransitionTime!, lastTransitionTime: failure.lastTransitionTime!, reason: failure.reason!, message: failure.message! });
    else removeCondition(status, 'ReplicaFailure');
    if (!deepEqual(d.status ?? {}, status)) this.writeStatus(run, status);
    return this.requeueStuck(run.d, status, run.now);
  }

  /** requeueStuckDeployment: look again when the progress deadline would pass. */
  private requeueStuck(d: StoredDeployment, status: DeploymentStatus, now: number): ReconcileResult | void {
    const cond = getCondition(d.status, 'Progressing');
    if (!hasProgressDeadline(d) || !cond) return;
    if (deploymentComplete(d, status) || cond.reason === reasons.timedOut) return;
    const after = Date.parse(cond.lastUpdateTime) + d.spec.progressDeadlineSeconds! * 1000 - now; // hasProgressDeadline
    return { requeueAfterMs: after < 1000 ? 1000 : after + 1000 };
  }

  private writeStatus(run: Run, status: DeploymentStatus): void {
    const current = this.client.get('apps/deployments', run.d.metadata.namespace, run.d.metadata.name);
    if (!current) return;
    run.d = asStored<DefaultedDeployment>(this.client.updateStatus('apps/deployments', { ...current, status }));
  }
}
