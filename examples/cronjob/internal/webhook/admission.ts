/*
Copyright 2026 The project Authors.

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
 * to deny, with the error's message shown to the user.
 */
import type { KubeObject } from 'kubeforge/runtime';

export interface CustomDefaulter<T extends KubeObject> {
  default(obj: T): Promise<void>;
}

export interface CustomValidator<T extends KubeObject> {
  validateCreate(obj: T): Promise<string[]>;
  validateUpdate(oldObj: T, newObj: T): Promise<string[]>;
  validateDelete(obj: T): Promise<string[]>;
}
