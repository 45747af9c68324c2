/*
Copyright 2026 The storagebucket Authors.

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
 * The StorageBucket controller: reconciles StorageBucket objects (storage.example.com/v1alpha1).
 */
import { isNotFound, type Manager, type ReconcileContext, type Request, type Result } from 'kubeforge/runtime';
import { StorageBucketKind, type StorageBucket } from '../../api/v1alpha1/storagebucket_types.js';

// +kubebuilder:rbac:groups=storage.example.com,resources=storagebuckets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=storage.example.com,resources=storagebuckets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=storage.example.com,resources=storagebuckets/finalizers,verbs=update

/** StorageBucketReconciler reconciles a StorageBucket object. */
export class StorageBucketReconciler {
  constructor(private readonly mgr: Manager) {}

  /**
   * Moves the cluster toward the state a StorageBucket asks for. Reconcile is level-based: read the object,
   * compare it with the world, act, and return when to look again (`{ requeueAfter: ms }`). Use
   * `context.clock`, never the wall clock, so the same code runs under the test clock.
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    let object: StorageBucket;
    try {
      object = await this.mgr.client.get(StorageBucketKind, request);
    } catch (err) {
      // Deleted after the request was queued: nothing to do (owned objects are garbage-collected).
      if (isNotFound(err)) return {};
      throw err;
    }
    context.log.debug({ storagebucket: request }, `reconciling StorageBucket ${object.metadata?.name ?? ''}`);

    // TODO(user): your logic here

    return {};
  }
}

/** Registers the StorageBucket controller with the manager (called from internal/controller/index.ts). */
export function setupStorageBucketController(mgr: Manager): void {
  mgr
    .controllerFor(StorageBucketKind)
    .named('storagebucket')
    .complete(new StorageBucketReconciler(mgr));
}
