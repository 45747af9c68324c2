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

import type { Condition, ListMeta, ObjectMeta } from 'kubeforge/api';
import { defineKind } from 'kubeforge/runtime';
import { groupVersion } from './groupversion_info.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).
// NOTE: Kubernetes types come from kubernetes-types with the file's .js name (module NodeNext), e.g.
//   import type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';

/** StorageBucketSpec defines the desired state of StorageBucket. */
export interface StorageBucketSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make manifests generate" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  /** foo is an example field of StorageBucket. Edit storagebucket_types.ts to remove/update. */
  // +kubebuilder:validation:MinLength=1
  foo?: string;
}

/** StorageBucketStatus defines the observed state of StorageBucket. */
export interface StorageBucketStatus {
  // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
  // Important: Run "make manifests generate" to regenerate code after modifying this file

  /**
   * conditions represent the current state of the StorageBucket resource.
   * Each condition has a unique type and reflects the status of a specific aspect of the resource.
   *
   * Standard condition types include:
   * - "Available": the resource is fully functional
   * - "Progressing": the resource is being created or updated
   * - "Degraded": the resource failed to reach or maintain its desired state
   *
   * The status of each condition is one of True, False, or Unknown.
   */
  // +listType=map
  // +listMapKey=type
  conditions?: Condition[];
}

/** StorageBucket is the Schema for the storagebuckets API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
export interface StorageBucket {
  apiVersion: 'storage.example.com/v1alpha1';
  kind: 'StorageBucket';
  metadata?: ObjectMeta;
  /** spec defines the desired state of StorageBucket. */
  spec: StorageBucketSpec;
  /** status defines the observed state of StorageBucket. */
  status?: StorageBucketStatus;
}

/** StorageBucketList contains a list of StorageBucket. */
// +kubebuilder:object:root=true
export interface StorageBucketList {
  apiVersion: 'storage.example.com/v1alpha1';
  kind: 'StorageBucketList';
  metadata?: ListMeta;
  items: StorageBucket[];
}

/** The StorageBucket kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const StorageBucketKind = defineKind<StorageBucket>({ ...groupVersion, kind: 'StorageBucket', plural: 'storagebuckets', namespaced: true });
