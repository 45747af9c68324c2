/** The webhook generator: the model's webhook declarations → config/webhook/manifests.yaml. */
export { buildWebhooks, emitWebhookManifestsYaml, type Webhook, type WebhookConfiguration, type WebhookManifests } from './build.js';
