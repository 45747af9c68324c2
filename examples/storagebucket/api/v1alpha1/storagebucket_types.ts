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

import type { Condition, ListMeta, ObjectMeta, Time } from 'kubeforge/api';
import { defineKind } from 'kubeforge/runtime';
import { groupVersion } from './groupversion_info.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).
// NOTE: Kubernetes types come from kubernetes-types with the file's .js name (module NodeNext), e.g.
//   import type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';

/** StorageBucketSpec defines the desired state of StorageBucket: which bucket of the object store it stands for. */
export interface StorageBucketSpec {
  /**
   * bucketName is the bucket's name in the object store the operator probes (its --s3-endpoint): 3 to 63
   * lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit (S3's rules).
   */
  // +kubebuilder:validation:MinLength=3
  // +kubebuilder:validation:MaxLength=63
  // +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]*[a-z0-9]$`
  bucketName: string;
}

/** StorageBucketStatus defines the observed state of StorageBucket: what the last probe of the bucket found. */
export interface StorageBucketStatus {
  /** lastProbeTime is when the operator last asked the object store about the bucket (HeadBucket). */
  lastProbeTime?: Time;

  /** available is true when the last probe found the bucket, false when it did not or could not ask. */
  available?: boolean;

  /**
   * conditions represent the current state of the StorageBucket resource.
   * Each condition has a unique type and reflects the status of a specific aspect of the resource.
   *
   * The operator sets "Available": True (reason BucketFound) when the bucket exists, False (BucketNotFound)
   * when the object store answers 404, Unknown (ProbeFailed) when it could not be asked.
   */
  // +listType=map
  // +listMapKey=type
  conditions?: Condition[];
}

/** StorageBucket is the Schema for the storagebuckets API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Bucket",type=string,JSONPath=`.spec.bucketName`
// +kubebuilder:printcolumn:name="Available",type=boolean,JSONPath=`.status.available`
// +kubebuilder:printcolumn:name="Last Probe",type=date,JSONPath=`.status.lastProbeTime`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
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
