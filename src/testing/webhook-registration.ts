/**
 * Points a project's webhook configurations (config/webhook/manifests.yaml, kubebuilder's layout with
 * `clientConfig.service`) at the manager's local webhook server: `url` = https://127.0.0.1:<port><path>
 * and `caBundle` = the server's self-signed CA, then creates or replaces them in the cluster.
 */
import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { isAlreadyExists } from '../runtime/client/api-error.js';
import type { Client } from '../runtime/client/client.js';
import type { KubeObject } from '../runtime/client/object.js';
import type { WebhookServer } from '../runtime/webhook/server.js';

interface WebhookEntry {
  name: string;
  clientConfig?: { service?: { path?: string }; url?: string; caBundle?: string };
}

type WebhookConfiguration = KubeObject & { webhooks?: WebhookEntry[] };

const configurationKinds = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

export async function registerWebhooks(client: Client, server: WebhookServer, manifestPath: string): Promise<WebhookConfiguration[]> {
  const text = await readFile(manifestPath, 'utf8');
  const docs = parseAllDocuments(text).map((d) => d.toJS() as WebhookConfiguration | null);
  const configurations = docs.filter((d): d is WebhookConfiguration => !!d && configurationKinds.has(d.kind ?? ''));
  if (configurations.length === 0) throw new Error(`${manifestPath}: no MutatingWebhookConfiguration or ValidatingWebhookConfiguration found (run \`make manifests\`)`);
  if (server.port === undefined) throw new Error('webhook server is not running: register a defaulter, validator or converter before startManager()');
  const caBundle = Buffer.from(server.caPem()).toString('base64');
  const created: WebhookConfiguration[] = [];
  for (const config of configurations) {
    for (const [index, webhook] of (config.webhooks ?? []).entries()) {
      const path = webhook.clientConfig?.service?.path;
      if (!path) throw new Error(`${manifestPath}: ${config.kind} ${config.metadata?.name} webhooks[${index}] (${webhook.name}): clientConfig.service.path is required`);
      webhook.clientConfig = { url: `https://127.0.0.1:${server.port}${path}`, caBundle };
    }
    try {
      created.push(await client.create(config));
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      await client.delete(config);
      created.push(await client.create(config));
    }
  }
  return created;
}
