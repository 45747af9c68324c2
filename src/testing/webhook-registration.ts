/**
 * Points a project's webhook configurations (config/webhook/manifests.yaml, kubebuilder's layout with
 * `clientConfig.service`) at the manager's local webhook server: `url` = https://127.0.0.1:<port><path>
 * and `caBundle` = the server's self-signed CA, then creates or replaces them in the cluster. Several
 * projects' manifests can share one manager: configurations of the same kind and name (every kubebuilder
 * project calls them `mutating-webhook-configuration` and `validating-webhook-configuration`) are merged
 * into one holding all their webhooks.
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

export async function registerWebhooks(client: Client, server: WebhookServer, manifestPaths: string | string[]): Promise<WebhookConfiguration[]> {
  if (server.port === undefined) throw new Error('webhook server is not running: register a defaulter, validator or converter before startManager()');
  const caBundle = Buffer.from(server.caPem()).toString('base64');
  const merged = new Map<string, WebhookConfiguration>();
  for (const manifestPath of typeof manifestPaths === 'string' ? [manifestPaths] : manifestPaths) {
    for (const config of await readConfigurations(manifestPath)) {
      for (const [index, webhook] of (config.webhooks ?? []).entries()) {
        const path = webhook.clientConfig?.service?.path;
        if (!path) throw new Error(`${manifestPath}: ${config.kind} ${config.metadata?.name} webhooks[${index}] (${webhook.name}): clientConfig.service.path is required`);
        webhook.clientConfig = { url: `https://127.0.0.1:${server.port}${path}`, caBundle };
      }
      const key = `${config.kind}/${config.metadata?.name}`;
      const earlier = merged.get(key);
      if (earlier) earlier.webhooks = [...(earlier.webhooks ?? []), ...(config.webhooks ?? [])];
      else merged.set(key, config);
    }
  }
  const created: WebhookConfiguration[] = [];
  for (const config of merged.values()) {
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

/** The webhook configurations of one manifests file; a file without any is an error that names it. */
async function readConfigurations(manifestPath: string): Promise<WebhookConfiguration[]> {
  const text = await readFile(manifestPath, 'utf8');
  const docs = parseAllDocuments(text).map((d) => d.toJS() as WebhookConfiguration | null);
  const configurations = docs.filter((d): d is WebhookConfiguration => !!d && configurationKinds.has(d.kind ?? ''));
  if (configurations.length === 0) throw new Error(`${manifestPath}: no MutatingWebhookConfiguration or ValidatingWebhookConfiguration found (run \`make manifests\`)`);
  return configurations;
}
