/**
 * The ConversionReview exchange of a CRD whose `spec.conversion.strategy` is Webhook, as
 * kube-apiserver 1.32's webhook converter runs it: one review per object not yet in the desired
 * version (uid, desiredAPIVersion, objects), posted over HTTPS verified with the caBundle (a service
 * reference reaches the webhook as admission webhooks do), and the response checked — its kind, uid,
 * result, number of objects, their apiVersion, kind, name, namespace and uid — with the real server's
 * error texts (`conversion webhook for <gvk> failed: …`, code 500). The converted metadata is the
 * original's, with the webhook's labels and annotations kept.
 */
import type { CustomResourceDefinition, ServiceReference, WebhookClientConfig } from 'kubernetes-types/apiextensions/v1.js';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors/status-errors.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, StoredObjectMeta } from '../store/object-store.js';
import { type ServiceResolver, post, webhookTarget } from '../admission/webhook-caller.js';
import { copyObject } from '../store/copy-object.js';

/** How long the server waits for a conversion webhook (client-go's default webhook request timeout). */
export const defaultConversionTimeoutMs = 30_000;

export interface ConversionSettings {
  resolve: ServiceResolver | undefined;
  timeoutMs: number;
}

/** The Go rendering of a GroupVersionKind (`group/version, Kind=Kind`). */
function gvkText(apiVersion: string, kind: string): string {
  return `${apiVersion}, Kind=${kind}`;
}

/** A conversion failure: a Status with code 500 and no reason, as ErrorToAPIStatus makes of a plain error. */
export class ConversionError extends ApiError {
  constructor(message: string) {
    super(500, '', message);
  }
}

export function usesConversionWebhook(crd: KubeObject | Readonly<KubeObject> | undefined): boolean {
  return crd !== undefined && asStored<CustomResourceDefinition>(crd).spec?.conversion?.strategy === 'Webhook';
}

/** The URL the server's client names in errors: the configured one, or `https://<service>.<namespace>.svc:<port><path>`. */
function requestUrl(clientConfig: WebhookClientConfig): string {
  if (clientConfig.url) return String(clientConfig.url);
  const service: Partial<ServiceReference> = clientConfig.service ?? {};
  return `https://${service.name}.${service.namespace}.svc:${service.port ?? 443}${service.path ?? ''}`;
}

/** The ConversionReview version the server speaks to this webhook: the first it lists that the server knows. */
function reviewVersion(crd: KubeObject): 'v1' | 'v1beta1' | undefined {
  const listed: string[] = asStored<CustomResourceDefinition>(crd).spec?.conversion?.webhook?.conversionReviewVersions ?? [];
  return listed.find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1');
}

/** A ConversionReview reply as decoded (its fields unchecked). */
interface ConversionReviewReply {
  apiVersion?: unknown;
  kind?: unknown;
  response?: { uid?: unknown; result?: { status?: unknown; message?: unknown }; convertedObjects?: unknown } | null;
}

/** One object a conversion webhook returned (its fields unchecked). */
interface ConvertedObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: unknown;
  [field: string]: unknown;
}

/** The converted objects of a response, or the reason it is not acceptable (getConvertedObjectsFromResponse). */
function convertedObjects(response: ConversionReviewReply | null, version: 'v1' | 'v1beta1', uid: string): unknown[] {
  if (version === 'v1') {
    const gvk = `${response?.apiVersion ?? ''}, Kind=${response?.kind ?? ''}`;
    if (response?.apiVersion !== 'apiextensions.k8s.io/v1' || response?.kind !== 'ConversionReview') {
      throw new Error(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gvk.startsWith(',') ? `/${gvk}` : gvk}`);
    }
  }
  const r = response?.response;
  if (!r) throw new Error('no response provided');
  if (version === 'v1' && r.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(r.uid ?? '')}`);
  if (r.result?.status !== 'Success') {
    if (r.result?.message) throw new Error(String(r.result.message));
    throw new Error(`response.result.status was '${r.result?.status ?? ''}', not 'Success'`);
  }
  return Array.isArray(r.convertedObjects) ? r.convertedObjects : [];
}

/** validateConvertedObject: the webhook may not change the kind, name, namespace or uid. */
function identityError(original: KubeObject, converted: ConvertedObject | undefined): string | undefined {
  const meta = converted?.metadata as { name?: unknown; namespace?: unknown; uid?: unknown } | null | undefined;
  const pairs: [string, unknown, unknown][] = [
    ['kind', original.kind, converted?.kind],
    ['name', original.metadata?.name, meta?.name],
    ['namespace', original.metadata?.namespace ?? '', meta?.namespace ?? ''],
    ['UID', original.metadata?.uid ?? '', meta?.uid ?? ''],
  ];
  const wrong = pairs.find(([, a, b]) => (a ?? '') !== (b ?? ''));
  return wrong ? `must have the same ${wrong[0]}: ${wrong[1] ?? ''} != ${wrong[2] ?? ''}` : undefined;
}

/** restoreObjectMeta: the original metadata with the webhook's labels and annotations. */
function restoredMetadata(original: KubeObject, converted: ConvertedObject | undefined): StoredObjectMeta {
  const meta = converted?.metadata;
  if (meta === undefined) throw new Error('missing metadata in converted object');
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new Error(`invalid metadata of type ${meta === null ? '<nil>' : Array.isArray(meta) ? '[]interface {}' : typeof meta} in converted object`);
  const out = copyObject(original.metadata);
  for (const field of ['labels', 'annotations'] as const) {
    const value = (meta as Record<string, unknown>)[field];
    if (value === undefined || value === null) {
      delete out[field];
      continue;
    }
    for (const [k, v] of Object.entries(value as object)) {
      if (typeof v !== 'string') throw new Error(`metadata.${field}[${k}] must be a string, but is ${typeof v} in converted object`);
    }
    out[field] = value as Record<string, string>; // every value checked to be a string above
  }
  return out;
}

/**
 * Converts one object to `desiredAPIVersion` through the CRD's webhook; an object already in that
 * version is returned as it is, without a call.
 */
export async function convertThroughWebhook(crd: KubeObject, object: KubeObject, desiredAPIVersion: string, settings: ConversionSettings): Promise<KubeObject> {
  if (object.apiVersion === desiredAPIVersion) return object;
  const gvk = gvkText(object.apiVersion!, object.kind!);
  const failed = (why: string): ConversionError => new ConversionError(`conversion webhook for ${gvk} failed: ${why}`);
  const version = reviewVersion(crd);
  if (!version) throw new ConversionError('no supported conversion review versions');
  const webhook = asStored<CustomResourceDefinition>(crd).spec.conversion!.webhook!;
  const target = webhookTarget(webhook, settings.resolve);
  const shown = requestUrl(webhook.clientConfig ?? {});
  if (!target) throw failed(`Post "${shown}": service "${webhook.clientConfig?.service?.name}" not found`);
  const uid = randomUUID();
  const review = { apiVersion: `apiextensions.k8s.io/${version}`, kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects: [object] }, response: {} };
  let text: string;
  try {
    text = await post(target.url, webhook.clientConfig?.caBundle, JSON.stringify(review), settings.timeoutMs, target.serverName);
  } catch (err) {
    throw failed(`Post "${shown}": ${(err as Error).message}`);
  }
  let objects: unknown[];
  try {
    objects = convertedObjects(JSON.parse(text), version, uid);
  } catch (err) {
    throw failed(err instanceof SyntaxError ? `the server responded with invalid JSON: ${err.message}` : (err as Error).message);
  }
  if (objects.length !== 1) throw new ConversionError(`conversion webhook for ${gvk} returned ${objects.length} objects, expected 1`);
  const converted = objects[0] as ConvertedObject | undefined;
  const receivedApiVersion = String(converted?.apiVersion ?? '');
  if (receivedApiVersion !== desiredAPIVersion) {
    throw new ConversionError(`conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${desiredAPIVersion}, received ${receivedApiVersion})`);
  }
  if (converted?.kind !== object.kind) {
    throw new ConversionError(`conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected ${object.kind}, received ${converted?.kind ?? ''})`);
  }
  const identity = identityError(object, converted);
  if (identity) throw new ConversionError(`conversion webhook for ${gvk} returned invalid object: ${identity}`);
  let metadata: StoredObjectMeta;
  try {
    metadata = restoredMetadata(object, converted);
  } catch (err) {
    throw new ConversionError(`conversion webhook for ${gvk} returned invalid metadata: ${(err as Error).message}`);
  }
  return { ...converted, metadata } as KubeObject;
}
