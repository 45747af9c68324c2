/** The webhook generator: `+kubebuilder:webhook` markers → config/webhook/manifests.yaml. */
export {
  buildWebhooks,
  emitWebhookManifestsYaml,
  WEBHOOK_MARKER,
  WEBHOOK_CONFIGURATION_MARKER,
  type Webhook,
  type WebhookConfiguration,
  type WebhookManifests,
} from './build.js';
export { parseLabelSelector, type LabelSelector } from './label-selector.js';
