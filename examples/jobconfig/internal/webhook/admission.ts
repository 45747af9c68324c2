/*
Copyright 2026 The jobconfig Authors.

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
 * The shapes of this project's admission webhook handlers (the kubeforge runtime's Defaulter and
 * Validator): a defaulter mutates the object in place; a validator returns warnings to admit and throws
 * to deny, with the error's message shown to the user. Each method may also take the admission request
 * (operation, user, dry-run, the old object): what controller-runtime's handlers get from
 * `admission.RequestFromContext(ctx)`.
 */
import type { AdmissionRequest, KubeObject } from 'kubeforge/runtime';

export interface CustomDefaulter<T extends KubeObject> {
  default(obj: T, request: AdmissionRequest<T>): Promise<void>;
}

export interface CustomValidator<T extends KubeObject> {
  validateCreate(obj: T, request: AdmissionRequest<T>): Promise<string[]>;
  validateUpdate(oldObj: T, newObj: T, request: AdmissionRequest<T>): Promise<string[]>;
  validateDelete(obj: T, request: AdmissionRequest<T>): Promise<string[]>;
}
