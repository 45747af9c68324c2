/**
 * Points a project's webhook configurations (config/webhook/manifests.yaml, kubebuilder's layout with
 * `clientConfig.service`) at the manager's local webhook server: `url` = https://127.0.0.1:<port><path>
 * and `caBundle` = the server's self-signed CA, then creates or replaces them in the cluster. Several
 * projects' manifests can share one manager: configurations of the same kind and name (every kubebuilder
 * project calls them `mutating-webhook-configuration` and `validating-webhook-configuration`) are merged
 * into one holding all their webhooks.
 * Conversion is wired the same way: every CRD of a kind the server's `/convert` handler converts
 * (`mgr.webhookFor(kind).withConversion(…)`) gets `spec.conversion` = strategy Webhook with that url and
 * caBundle and `conversionReviewVersions: [v1]` — what config/crd/patches/webhook_in_<plural>.yaml and
 * cert-manager's CA injection do in a real cluster.
 */
import { readFile } from 'node:fs/promises';
import type { CustomResourceConversion, CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { parseAllDocuments } from 'yaml';
import { isAlreadyExists, isConflict } from '../runtime/client/api-error.js';
import { BuiltinKinds } from '../runtime/client/kinds.js';
import type { Client } from '../runtime/client/client.js';
import type { KubeObject } from '../runtime/client/object.js';
import type { WebhookServer } from '../runtime/webhook/server.js';

interface WebhookEntry {
  name: string;
  clientConfig?: { service?: { path?: string }; url?: string; caBundle?: string };
}

type WebhookConfiguration = KubeObject & { webhooks?: WebhookEntry[] };

const configurationKinds = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

/** Where the manager's webhook server answers ConversionReviews (controller-runtime's and kubebuilder's path). */
const CONVERT_PATH = '/convert';

/**
 * Registers the admission webhook configurations of `manifestPaths` and the conversion of every kind the
 * server converts; returns the configurations and CRDs written. A project with only a conversion webhook
 * has no manifests file: pass `[]`.
 */
export async function registerWebhooks(client: Client, server: WebhookServer, manifestPaths: string | string[]): Promise<KubeObject[]> {
  if (server.port === undefined) throw new Error('webhook server is not running: register a defaulter, validator or converter before startManager()');
  const caBundle = Buffer.from(server.caPem()).toString('base64');
  const convertedKinds = server.convertedKinds();
  const merged = new Map<string, WebhookConfiguration>();
  for (const manifestPath of typeof manifestPaths === 'string' ? [manifestPaths] : manifestPaths) {
    for (const config of await readConfigurations(manifestPath, convertedKinds.length > 0)) {
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
  // Every converted kind's CRD is found before anything is written: a missing one changes nothing.
  const crds = await convertedCrds(client, convertedKinds);
  const created: KubeObject[] = [];
  for (const config of merged.values()) {
    try {
      created.push(await client.create(config));
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      await client.delete(config);
      created.push(await client.create(config));
    }
  }
  const conversion: CustomResourceConversion = { strategy: 'Webhook', webhook: { clientConfig: { url: `https://127.0.0.1:${server.port}${CONVERT_PATH}`, caBundle }, conversionReviewVersions: ['v1'] } };
  for (const crd of crds) created.push(await setConversion(client, crd, conversion));
  return created;
}

/** The CRDs in the cluster of the kinds (`Kind.group`) the server converts; a kind without one is an error. */
async function convertedCrds(client: Client, convertedKinds: string[]): Promise<CustomResourceDefinition[]> {
  if (convertedKinds.length === 0) return [];
  const all = (await client.list(BuiltinKinds.CustomResourceDefinition)) as unknown as CustomResourceDefinition[];
  return convertedKinds.map((groupKind) => {
    const crd = all.find((c) => `${c.spec.names.kind}.${c.spec.group}` === groupKind);
    if (!crd) throw new Error(`the webhook server converts ${groupKind}, but the cluster has no CustomResourceDefinition for it (install config/crd/bases first)`);
    return crd;
  });
}

/** Writes `spec.conversion` into the CRD, reading it again when another writer got there first. */
async function setConversion(client: Client, crd: CustomResourceDefinition, conversion: CustomResourceConversion): Promise<KubeObject> {
  let current = crd;
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.update({ ...current, spec: { ...current.spec, conversion } } as KubeObject);
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
      current = (await client.get(BuiltinKinds.CustomResourceDefinition, { name: crd.metadata!.name! })) as unknown as CustomResourceDefinition;
    }
  }
}

/**
 * The webhook configurations of one manifests file; a file without any is an error that names it, unless
 * the server converts kinds (then the conversion alone may be what there is to register).
 */
async function readConfigurations(manifestPath: string, mayHaveNone: boolean): Promise<WebhookConfiguration[]> {
  const text = await readFile(manifestPath, 'utf8');
  const docs = parseAllDocuments(text).map((d) => d.toJS() as WebhookConfiguration | null);
  const configurations = docs.filter((d): d is WebhookConfiguration => !!d && configurationKinds.has(d.kind ?? ''));
  if (configurations.length === 0 && !mayHaveNone) throw new Error(`${manifestPath}: no MutatingWebhookConfiguration or ValidatingWebhookConfiguration found (run \`make manifests\`)`);
  return configurations;
}
