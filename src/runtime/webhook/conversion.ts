/**
 * Conversion between the versions of a kind, in controller-runtime's hub-and-spoke shape. API types here
 * are interfaces, not classes, so a kind's versions are tied together by objects registered for it: the
 * hub (the storage version) is named by its KindInfo, and every other version (a spoke) by a
 * `Convertible` that converts to and from the hub. A conversion between two spokes goes through the hub.
 * `ConversionWebhook` answers the API server's ConversionReview exactly as controller-runtime's
 * `/convert` handler does: each object converted, the request's uid echoed, `result.status: Failure`
 * with the error's message when any object fails.
 */
import type { KindInfo } from '../client/kinds.js';
import { apiVersionOf, groupKindOf } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { splitApiVersion } from '../client/object.js';
import { cloneJson } from '../cache/copy.js';
import { errorMessage } from '../as-error.js';

/**
 * The hub of a kind: the version every other version converts to and from (controller-runtime's
 * `conversion.Hub`). By kubebuilder's convention it is the storage version.
 */
export interface Hub<H extends KubeObject = KubeObject> {
  readonly hub: KindInfo<H>;
}

/**
 * A spoke version of a kind (controller-runtime's `conversion.Convertible`). Both methods fill the target,
 * which arrives with its apiVersion, kind and a copy of the source's metadata already set; they copy or
 * map the rest (spec, status, annotations that carry fields the other version lacks). Throw to fail the
 * conversion; the API server then reports the message.
 */
export interface Convertible<S extends KubeObject = KubeObject, H extends KubeObject = KubeObject> {
  readonly spoke: KindInfo<S>;
  /** Fills `hub` from `spoke` (this version → the hub). */
  convertTo(spoke: Readonly<S>, hub: H): void | Promise<void>;
  /** Fills `spoke` from `hub` (the hub → this version). */
  convertFrom(hub: Readonly<H>, spoke: S): void | Promise<void>;
}

/** A kind's hub and its spokes: everything needed to convert an object of the kind to any version it has. */
export class KindConversion<H extends KubeObject = KubeObject> implements Hub<H> {
  private readonly spokes = new Map<string, Convertible<KubeObject, H>>();

  constructor(readonly hub: KindInfo<H>) {}

  /** Adds a spoke version; its group and kind must be the hub's. */
  spoke<S extends KubeObject>(convertible: Convertible<S, H>): this {
    const s = convertible.spoke;
    if (s.group !== this.hub.group || s.kind !== this.hub.kind) {
      throw new Error(`${groupKindOf(s)} ${s.version} cannot be a spoke of ${groupKindOf(this.hub)}: the group and kind differ`);
    }
    if (s.version === this.hub.version) throw new Error(`${groupKindOf(s)} ${s.version} is the hub; it cannot be a spoke too`);
    this.spokes.set(s.version, convertible as unknown as Convertible<KubeObject, H>);
    return this;
  }

  /** `Kind.group`, the key the webhook dispatches on. */
  get groupKind(): string {
    return groupKindOf(this.hub);
  }

  /** Every version this kind converts between, the hub first. */
  versions(): string[] {
    return [this.hub.version, ...this.spokes.keys()];
  }

  /**
   * Converts `obj` to `desiredAPIVersion`: spoke → hub, hub → spoke, or spoke → hub → spoke. As in
   * controller-runtime, converting to the version an object already has is an error (the API server
   * never asks for it), and so is a version the kind does not have.
   */
  async convert(obj: KubeObject, desiredAPIVersion: string): Promise<KubeObject> {
    const from = this.versionOf(obj.apiVersion ?? '', 'object');
    const to = this.versionOf(desiredAPIVersion, 'desired');
    if (from === to) throw new Error(`conversion is not allowed between same type ${this.typeName(from)}`);
    const source = cloneJson(obj);
    const hub = from === this.hub.version ? (source as H) : await this.toHub(from, source);
    if (to === this.hub.version) return hub;
    const spoke = this.target(obj, this.spokes.get(to)!.spoke);
    await this.spokes.get(to)!.convertFrom(hub, spoke);
    return spoke;
  }

  private async toHub(version: string, spoke: KubeObject): Promise<H> {
    const hub = this.target(spoke, this.hub) as H;
    await this.spokes.get(version)!.convertTo(spoke, hub);
    return hub;
  }

  /** A fresh object of `kind`'s version with the source's metadata (the part every version shares). */
  private target(source: KubeObject, kind: KindInfo): KubeObject {
    return { apiVersion: apiVersionOf(kind), kind: kind.kind, ...(source.metadata ? { metadata: cloneJson(source.metadata) } : {}) };
  }

  private versionOf(apiVersion: string, what: 'object' | 'desired'): string {
    const { group, version } = splitApiVersion(apiVersion);
    if (group !== this.hub.group || !(version === this.hub.version || this.spokes.has(version))) {
      const known = this.versions().map((v) => apiVersionOf({ group: this.hub.group, version: v }));
      throw new Error(`${what === 'object' ? 'object' : 'desired'} apiVersion ${apiVersion} is not a version of ${this.groupKind} (it converts between ${known.join(', ')})`);
    }
    return version;
  }

  private typeName(version: string): string {
    return `${apiVersionOf({ group: this.hub.group, version })}, Kind=${this.hub.kind}`;
  }
}

export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}

export interface ConversionResponse {
  uid: string;
  convertedObjects: KubeObject[];
  result: { metadata: Record<string, never>; status: 'Success' | 'Failure'; message?: string };
}

/** A review body the webhook cannot read (the server answers 400). */
export class ReviewError extends Error {}

/** The ConversionReview versions the webhook answers (the API server picks from the CRD's list). */
export const CONVERSION_REVIEW_VERSIONS = ['apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'] as const;

/**
 * The `/convert` handler of a webhook server: the conversions of every kind registered with it, and the
 * ConversionReview exchange. One per server, whatever the number of kinds, as controller-runtime's.
 */
export class ConversionWebhook {
  private readonly kinds = new Map<string, KindConversion>();

  /** Adds a kind's conversion; a second registration of the same kind replaces the first. */
  add(conversion: KindConversion<KubeObject>): void {
    this.kinds.set(conversion.groupKind, conversion);
  }

  has(groupKind: string): boolean {
    return this.kinds.has(groupKind);
  }

  /** The `Kind.group` of every kind registered, in registration order. */
  groupKinds(): string[] {
    return [...this.kinds.keys()];
  }

  /** Converts every object of the request; any failure fails the whole response, as the API server expects. */
  async convert(request: ConversionRequest): Promise<ConversionResponse> {
    try {
      const convertedObjects: KubeObject[] = [];
      for (const obj of request.objects ?? []) convertedObjects.push(await this.convertOne(obj, request.desiredAPIVersion));
      return { uid: request.uid, convertedObjects, result: { metadata: {}, status: 'Success' } };
    } catch (err) {
      return { uid: request.uid, convertedObjects: [], result: { metadata: {}, status: 'Failure', message: errorMessage(err) } };
    }
  }

  /** Answers a whole ConversionReview body in the review version it came in; throws on a malformed one. */
  async review(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : CONVERSION_REVIEW_VERSIONS[0];
    if (!(CONVERSION_REVIEW_VERSIONS as readonly string[]).includes(apiVersion) || (body.kind !== undefined && body.kind !== 'ConversionReview')) {
      throw new ReviewError(`unsupported review ${apiVersion} ${String(body.kind)}; expected ConversionReview of ${CONVERSION_REVIEW_VERSIONS.join(' or ')}`);
    }
    const request = body.request as Partial<ConversionRequest>;
    if (typeof request.uid !== 'string' || typeof request.desiredAPIVersion !== 'string' || !Array.isArray(request.objects)) {
      throw new ReviewError('conversion request needs uid, desiredAPIVersion and objects');
    }
    return { apiVersion, kind: 'ConversionReview', response: await this.convert(request as ConversionRequest) };
  }

  private async convertOne(obj: KubeObject, desiredAPIVersion: string): Promise<KubeObject> {
    if (!obj || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') throw new Error('object in the conversion request has no apiVersion and kind');
    const { group } = splitApiVersion(obj.apiVersion);
    const conversion = this.kinds.get(groupKindOf({ group, kind: obj.kind }));
    if (!conversion) throw new Error(`no conversion registered for ${groupKindOf({ group, kind: obj.kind })} (${obj.apiVersion})`);
    const converted = await conversion.convert(obj, desiredAPIVersion);
    return { ...converted, apiVersion: desiredAPIVersion, kind: obj.kind };
  }
}
