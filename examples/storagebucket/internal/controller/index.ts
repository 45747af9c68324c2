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
 * Registers every controller of this project with the manager. `kubeforge create api` adds an import and
 * a setup call at the `+kubebuilder:scaffold:` markers below; keep the markers.
 */
import type { Manager } from 'kubeforge/runtime';
import { setupStorageBucketController } from './storagebucket_controller.js';
// +kubebuilder:scaffold:imports

export async function setupControllers(mgr: Manager): Promise<void> {
  void mgr; // used once a controller is registered below
  setupStorageBucketController(mgr);
  // +kubebuilder:scaffold:builder
}
