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
 * Registers every webhook of this project with the manager's webhook server, which starts with the
 * manager (HTTPS on --webhook-port; the certificate from --webhook-cert-path in a cluster, a self-signed
 * one made at start for local runs). `kubeforge create webhook` adds to it at the `+kubebuilder:scaffold:`
 * markers; keep them.
 */
import type { Manager } from 'kubeforge/runtime';
import { setupCronJobWebhookWithManager } from './v1/cronjob_webhook.js';
import { setupCronJobConversionWithManager } from './v1/cronjob_conversion.js';
// +kubebuilder:scaffold:imports

/** Registers the handlers; returns the URL paths they are served at. */
export function setupWebhooks(mgr: Manager): string[] {
  const paths: string[] = [];
  paths.push(...setupCronJobWebhookWithManager(mgr));
  paths.push(...setupCronJobConversionWithManager(mgr));
  // +kubebuilder:scaffold:webhooks
  mgr.logger.info({ paths }, 'webhooks registered');
  return paths;
}
