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

// Package v1alpha1 contains API Schema definitions for the storage v1alpha1 API group.
// +kubebuilder:object:generate=true
// +groupName=storage.example.com

/** GroupVersion is the group and version used to register these objects. */
export const groupVersion = { group: 'storage.example.com', version: 'v1alpha1' } as const;
