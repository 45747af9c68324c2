/*
Copyright 2026 The at Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The AT controller: runs one Job when the clock reaches an AT's `spec.schedule` and reports the Job's
 * progress in the AT's status (reference-operators.md §2.2–§2.3).
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { BuiltinKinds, isAlreadyExists, isNotFound, setControllerReference, type Manager, type ReconcileContext, type Request, type Result } from 'kubeforge/runtime';
import { ATKind, type AT, type ATStatus } from '../../api/v1/at_types.js';
import { childJobName, constructChildJob, scheduleMillis, statusFromChildJob } from './at_child_job.js';

// +kubebuilder:rbac:groups=batch.my.domain,resources=ats,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.my.domain,resources=ats/status,verbs=get;update;patch
// Not in k8s-at (a kubebuilder v2 project): the grant that lets the Jobs' controller references block the
// AT's deletion where the API server enforces it (OwnerReferencesPermissionEnforcement, as OpenShift does).
// +kubebuilder:rbac:groups=batch.my.domain,resources=ats/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get

/** ATReconciler reconciles a AT object. */
export class ATReconciler {
  constructor(private readonly mgr: Manager) {}

  /**
   * Found child Job → report its phase. No child yet → create it when the schedule has come (KF-AT-1:
   * `now >= schedule`), else report `Pending` and look again at the schedule instant.
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    let at: AT;
    try {
      at = await this.mgr.client.get(ATKind, request);
    } catch (err) {
      // Deleted after the request was queued: nothing to do (owned objects are garbage-collected).
      if (isNotFound(err)) return {};
      throw err;
    }
    const jobKey = { namespace: request.namespace, name: childJobName(at) };
    const child = await this.getJob(this.mgr.client, jobKey);
    if (child) return this.reportChild(at, child);

    const now = context.clock.now();
    const due = scheduleMillis(at);
    if (now < due) {
      await this.writeStatus(at, { status: 'Pending' });
      return { requeueAfter: due - now };
    }
    const job = constructChildJob(at, now);
    setControllerReference(at, job);
    try {
      await this.mgr.client.create(job);
      context.log.info({ job: jobKey }, 'created child Job');
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // The cache had not seen a Job that exists (made by an earlier reconcile or by someone else): read it.
      const existing = await this.getJob(this.mgr.apiReader(), jobKey);
      if (existing) return this.reportChild(at, existing);
      throw err;
    }
    // The Job's create event reconciles the AT again and reports it.
    return {};
  }

  private async reportChild(at: AT, job: Job): Promise<Result> {
    let derived: ATStatus;
    try {
      derived = statusFromChildJob(job);
    } catch (err) {
      throw new Error(`Failed to update at status ${(err as Error).message}`, { cause: err });
    }
    await this.writeStatus(at, derived);
    return {};
  }

  private async getJob(reader: Manager['client'], key: { namespace: string | undefined; name: string }): Promise<Job | undefined> {
    try {
      return await reader.get(BuiltinKinds.Job, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Merges `fields` into the status (other status fields are kept); skips the write when nothing changes. */
  private async writeStatus(at: AT, fields: ATStatus): Promise<void> {
    const current = at.status ?? {};
    const changed = (Object.keys(fields) as Array<keyof ATStatus>).some((k) => current[k] !== fields[k]);
    if (!changed) return;
    await this.mgr.client.patchStatus(at, { status: fields });
  }
}

/** Registers the AT controller with the manager (called from internal/controller/index.ts). */
export function setupATController(mgr: Manager): void {
  mgr
    .controllerFor(ATKind)
    .owns(BuiltinKinds.Job)
    .named('at')
    .complete(new ATReconciler(mgr));
}
