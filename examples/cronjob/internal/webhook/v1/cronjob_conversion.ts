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
 * The conversion webhook for CronJob: the API server posts ConversionReviews to /convert to convert
 * CronJob objects between the versions the CRD serves. v1 is the hub (the storage version);
 * each spoke converts to and from it. `kubeforge create webhook --conversion --spoke <version>` adds
 * spokes at the scaffold markers; keep them.
 */
import { KindConversion, type Manager } from 'kubeforge/runtime';
import { CronJobHub } from '../../../api/v1/cronjob_conversion.js';
import { CronJobV2Convertible } from '../../../api/v2/cronjob_conversion.js';
// +kubebuilder:scaffold:imports

/** CronJob's hub and its spokes. */
export const cronJobConversion = new KindConversion(CronJobHub.hub);
cronJobConversion.spoke(CronJobV2Convertible);
// +kubebuilder:scaffold:spokes

/** Registers the CronJob conversion with the manager's webhook server (its one /convert); returns the path. */
export function setupCronJobConversionWithManager(mgr: Manager): string[] {
  return mgr.webhookFor(CronJobHub.hub).withConversion(cronJobConversion).complete();
}
