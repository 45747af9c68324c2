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
 * CronJob v1 is the conversion hub: the version every other version of CronJob converts to and
 * from, and the storage version (`+kubebuilder:storageversion` in cronjob_types.ts), as in kubebuilder.
 * The spokes are listed in internal/webhook/v1/cronjob_conversion.ts.
 */
import type { Hub } from 'kubeforge/runtime';
import { CronJobKind, type CronJob } from './cronjob_types.js';

/** Marks CronJob v1 as the hub (controller-runtime's `Hub()` method). */
export const CronJobHub: Hub<CronJob> = { hub: CronJobKind };
