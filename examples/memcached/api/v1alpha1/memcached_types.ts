/*
Copyright 2026 The memcached Authors.

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

import type { Condition, int32, ListMeta, ObjectMeta } from 'kubeforge/api';
import { defineKind } from 'kubeforge/runtime';
import { groupVersion } from './groupversion_info.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).

/** MemcachedSpec defines the desired state of Memcached. */
export interface MemcachedSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make manifests generate" to regenerate code after modifying this file

  /**
   * size defines the number of Memcached instances.
   * The following markers will use OpenAPI v3 schema to validate the value.
   * More info: https://book.kubebuilder.io/reference/markers/crd-validation.html
   */
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=3
  // +kubebuilder:validation:ExclusiveMaximum=false
  // +optional
  size?: int32;

  /** containerPort defines the port that will be used to init the container with the image. */
  // +required
  containerPort: int32;
}

/** MemcachedStatus defines the observed state of Memcached. */
export interface MemcachedStatus {
  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  /**
   * conditions represent the current state of the Memcached resource.
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
  // +optional
  conditions?: Condition[];
}

/** Memcached is the Schema for the memcacheds API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
export interface Memcached {
  apiVersion: 'cache.example.com/v1alpha1';
  kind: 'Memcached';
  metadata?: ObjectMeta;
  /** spec defines the desired state of Memcached. */
  spec: MemcachedSpec;
  /** status defines the observed state of Memcached. */
  status?: MemcachedStatus;
}

/** MemcachedList contains a list of Memcached. */
// +kubebuilder:object:root=true
export interface MemcachedList {
  apiVersion: 'cache.example.com/v1alpha1';
  kind: 'MemcachedList';
  metadata?: ListMeta;
  items: Memcached[];
}

/** The Memcached kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const MemcachedKind = defineKind<Memcached>({ ...groupVersion, kind: 'Memcached', plural: 'memcacheds', namespaced: true });
