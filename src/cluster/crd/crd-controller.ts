/**
 * The CRD controllers of the local cluster, in one loop on the cluster clock: naming and
 * establishing (acceptedNames, NamesAccepted, Established), serving (the catalog follows each CRD's
 * served versions), and cleanup on deletion (Terminating conditions, deleting every custom resource,
 * then removing the finalizer) — §5.2. A delete that fails for another reason than NotFound is reported as
 * kube-apiserver's CRD finalizer does (Terminating=True, InstanceDeletionFailed, "could not issue all
 * deletes: …") and the cleanup retried with per-CRD exponential backoff (5 ms doubling to 1000 s).
 */
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
} from 'kubernetes-types/apiextensions/v1.js';
import { ApiError } from '../errors/status-errors.js';
import type { ClusterInternals } from '../local-cluster.js';
import type { ResourceType } from '../registry/resource-type.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, StoreEvent, Stored } from '../store/object-store.js';
import { crdCleanupFinalizer } from './crd-kind.js';
import { customResourceType } from './custom-resource-type.js';
import { copyObject } from '../store/copy-object.js';

const crdBucket = 'customresourcedefinitions.apiextensions.k8s.io';
const manager = { fieldManager: 'kube-apiserver' };

function condition(type: string, status: string, reason: string, message: string, now: number, previous?: CustomResourceDefinitionCondition): CustomResourceDefinitionCondition {
  const transition = previous && previous.status === status ? previous.lastTransitionTime : rfc3339(now);
  return { type, status, lastTransitionTime: transition, reason, message };
}

function isTrue(crd: KubeObject, type: string): boolean {
  return (asStored<CustomResourceDefinition>(crd).status?.conditions ?? []).some((c: CustomResourceDefinitionCondition) => c.type === type && c.status === 'True');
}

/** Whether the names a CRD asks for are the ones accepted. */
function acceptedAsNamed(crd: Stored<CustomResourceDefinition>): boolean {
  return JSON.stringify(crd.status!.acceptedNames) === JSON.stringify(crd.spec.names);
}

export class CrdController {
  private readonly pending = new Set<string>();
  /** Storage bucket → name of the CRD being deleted that owns it. */
  private readonly terminatingBuckets = new Map<string, string>();
  private scheduled = false;
  /** CRD name → failed cleanups in a row and when the next may run (its own status writes wake it earlier). */
  private readonly cleanupBackoff = new Map<string, { failures: number; retryAt: number }>();

  constructor(private readonly cluster: ClusterInternals, private readonly onTypesChanged: (group: string, resource: string, gone: boolean) => void) {
    cluster.store.onCommit((e) => this.observe(e));
  }

  private observe(e: StoreEvent): void {
    if (e.bucket === crdBucket) {
      const crd = e.object;
      const { spec } = asStored<CustomResourceDefinition>(crd);
      const bucket = `${spec?.names?.plural}.${spec?.group}`;
      if (e.type !== 'DELETED' && crd.metadata.deletionTimestamp) this.terminatingBuckets.set(bucket, crd.metadata.name);
      else this.terminatingBuckets.delete(bucket);
      this.syncServing(e.type === 'DELETED' ? undefined : crd, crd);
      this.enqueue(crd.metadata.name);
      return;
    }
    // a custom resource changed: a terminating CRD may now be able to finish
    const terminating = this.terminatingBuckets.get(e.bucket);
    if (terminating) this.enqueue(terminating);
  }

  private enqueue(name: string): void {
    this.pending.add(name);
    if (this.scheduled) return;
    this.scheduled = true;
    this.cluster.clock.schedule(this.cluster.clock.now(), () => {
      this.scheduled = false;
      const names = [...this.pending];
      this.pending.clear();
      for (const n of names) this.reconcile(n);
    });
  }

  /** Keeps the catalog equal to what each CRD serves (synchronously at commit). */
  private syncServing(crd: KubeObject | undefined, last: KubeObject): void {
    const lastCrd = asStored<CustomResourceDefinition>(last);
    const group: string = lastCrd.spec?.group;
    const plural: string = (lastCrd.status?.acceptedNames?.plural || lastCrd.spec?.names?.plural) ?? '';
    if (!crd || !(isTrue(crd, 'NamesAccepted') || isTrue(crd, 'Established'))) {
      if (this.cluster.catalog.versionsOf(group, plural).length) {
        this.cluster.catalog.replace(group, plural, []);
        this.onTypesChanged(group, plural, true);
      }
      return;
    }
    const terminating = Boolean(crd.metadata.deletionTimestamp);
    const { spec } = asStored<CustomResourceDefinition>(crd);
    const types: ResourceType[] = ((spec.versions ?? []) as CustomResourceDefinitionVersion[]).filter((v) => v.served).map((v) => customResourceType(crd, v, terminating));
    const storage = ((spec.versions ?? []) as CustomResourceDefinitionVersion[]).find((v) => v.storage)?.name;
    types.sort((a, b) => (a.version === storage ? -1 : b.version === storage ? 1 : 0));
    this.cluster.catalog.replace(group, spec.names.plural, types);
    this.onTypesChanged(group, spec.names.plural, false);
  }

  private crdType(): ResourceType {
    return this.cluster.catalog.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  }

  reconcile(name: string): void {
    // the stored CRD read in place first: an established one with its names accepted needs no copy
    const shared = this.cluster.store.peek(crdBucket, undefined, name) as KubeObject | undefined;
    if (!shared) return;
    if (!shared.metadata.deletionTimestamp && isTrue(shared, 'Established') && acceptedAsNamed(asStored<CustomResourceDefinition>(shared))) return;
    const crd = asStored<CustomResourceDefinition>(copyObject(shared));
    if (crd.metadata.deletionTimestamp) return this.cleanup(crd);
    if (isTrue(crd, 'Established') && acceptedAsNamed(crd)) return;
    const now = this.cluster.clock.now();
    const conflict = this.nameConflict(crd);
    const prev = (t: string): CustomResourceDefinitionCondition | undefined => (crd.status?.conditions ?? []).find((c: CustomResourceDefinitionCondition) => c.type === t);
    const status: CustomResourceDefinitionStatus = copyObject(crd.status ?? {});
    if (conflict) {
      status.conditions = [
        condition('NamesAccepted', 'False', conflict.reason, conflict.message, now, prev('NamesAccepted')),
        condition('Established', 'False', 'NotAccepted', 'not all names are accepted', now, prev('Established')),
      ];
    } else {
      status.acceptedNames = copyObject(crd.spec.names);
      status.conditions = [
        condition('NamesAccepted', 'True', 'NoConflicts', 'no conflicts found', now, prev('NamesAccepted')),
        condition('Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted', now, prev('Established')),
      ];
    }
    this.cluster.operations.update(this.crdType(), undefined, name, { ...crd, status }, { ...manager, subresource: 'status' });
  }

  private nameConflict(crd: Stored<CustomResourceDefinition>): { reason: string; message: string } | undefined {
    const names = crd.spec.names;
    for (const stored of this.cluster.store.listShared(crdBucket)) {
      const other = asStored<CustomResourceDefinition>(stored);
      if (other.metadata.name === crd.metadata.name || other.spec.group !== crd.spec.group) continue;
      const taken: Partial<CustomResourceDefinitionNames> = other.status?.acceptedNames ?? {};
      if (taken.plural === names.plural) return { reason: 'PluralConflict', message: `"${names.plural}" is already in use` };
      if (taken.singular && taken.singular === names.singular) return { reason: 'SingularConflict', message: `"${names.singular}" is already in use` };
      for (const s of names.shortNames ?? []) if ((taken.shortNames ?? []).includes(s)) return { reason: 'ShortNamesConflict', message: `"${s}" is already in use` };
      if (taken.kind === names.kind) return { reason: 'KindConflict', message: `"${names.kind}" is already in use` };
      if (taken.listKind && taken.listKind === names.listKind) return { reason: 'ListKindConflict', message: `"${names.listKind}" is already in use` };
    }
    return undefined;
  }

  private cleanup(crd: Stored<CustomResourceDefinition>): void {
    const now = this.cluster.clock.now();
    const backoff = this.cleanupBackoff.get(crd.metadata.name);
    if (backoff && now < backoff.retryAt) return;
    const bucket = `${crd.spec.names.plural}.${crd.spec.group}`;
    const remaining = this.cluster.store.list(bucket);
    const rt = this.cluster.catalog.versionsOf(crd.spec.group, crd.spec.names.plural)[0];
    const setTerminating = (reason: string, message: string, status: string): void => {
      const others = (crd.status?.conditions ?? []).filter((c: CustomResourceDefinitionCondition) => c.type !== 'Terminating');
      const prev = (crd.status?.conditions ?? []).find((c: CustomResourceDefinitionCondition) => c.type === 'Terminating');
      if (prev?.reason === reason && prev?.status === status && prev?.message === message) return;
      const next = { ...crd, status: { ...crd.status, conditions: [...others, condition('Terminating', status, reason, message, now, prev)] } };
      const r = this.cluster.operations.update(this.crdType(), undefined, crd.metadata.name, next, { ...manager, subresource: 'status' });
      crd.status = asStored<CustomResourceDefinition>(r.object).status;
      crd.metadata.resourceVersion = r.object.metadata.resourceVersion;
    };
    if (remaining.length > 0 && rt) {
      setTerminating('InstanceDeletionInProgress', 'CustomResource deletion is in progress', 'True');
      const failures: string[] = [];
      for (const o of remaining) {
        if (o.metadata.deletionTimestamp) continue;
        try {
          this.cluster.operations.delete(rt, o.metadata.namespace, o.metadata.name, { propagationPolicy: 'Background' });
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 404)) failures.push(err instanceof Error ? err.message : String(err)); // 404: already gone
        }
      }
      if (failures.length > 0) {
        setTerminating('InstanceDeletionFailed', `could not issue all deletes: ${aggregateMessage(failures)}`, 'True');
        this.retryCleanupLater(crd.metadata.name);
        return;
      }
      this.cleanupBackoff.delete(crd.metadata.name);
      if (this.cluster.store.list(bucket).length > 0) return;
    }
    this.cleanupBackoff.delete(crd.metadata.name);
    setTerminating('InstanceDeletionCompleted', `removed all instances`, 'False');
    const latest = this.cluster.store.get(crdBucket, undefined, crd.metadata.name);
    if (!latest) return;
    const finalizers = (latest.metadata.finalizers ?? []).filter((f: string) => f !== crdCleanupFinalizer);
    this.cluster.operations.update(this.crdType(), undefined, latest.metadata.name, { ...latest, metadata: { ...latest.metadata, finalizers } }, manager);
  }

  private retryCleanupLater(name: string): void {
    const failures = (this.cleanupBackoff.get(name)?.failures ?? 0) + 1;
    const delay = Math.min(5 * 2 ** (failures - 1), 1_000_000);
    const retryAt = this.cluster.clock.now() + delay;
    this.cleanupBackoff.set(name, { failures, retryAt });
    this.cluster.clock.schedule(retryAt, () => this.enqueue(name));
  }
}

/** Several errors as apimachinery's aggregate prints them: one alone as itself, more as "[a, b]" (duplicates once). */
function aggregateMessage(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
