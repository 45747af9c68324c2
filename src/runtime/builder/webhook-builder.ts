/**
 * The webhook builder — composition only, as controller-runtime's `NewWebhookManagedBy(mgr).For(obj)`:
 * `webhookFor(kind)` then `withDefaulter`, `withValidator` and `withConversion`, and `complete()`
 * registers them with the manager's webhook server at kubebuilder's paths. The conversion joins the
 * server's one `/convert` handler, which is registered with the first kind that has a conversion.
 */
import type { KindInfo, KindRef, KindRegistry } from '../client/kinds.js';
import { groupKindOf } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { mutatePath, validatePath, type Defaulter, type Validator } from '../webhook/admission.js';
import type { KindConversion } from '../webhook/conversion.js';
import type { WebhookServer } from '../webhook/server.js';

/** Where built webhooks go (the manager implements it). */
export interface WebhookHost {
  readonly kinds: KindRegistry;
  readonly webhookServer: WebhookServer;
}

export class WebhookBuilder<T extends KubeObject = KubeObject> {
  private readonly kind: KindInfo<T>;
  private defaulter: { handler: Defaulter<T>; path?: string } | undefined;
  private validator: { handler: Validator<T>; path?: string } | undefined;
  private conversion: KindConversion<KubeObject> | undefined;

  constructor(
    private readonly host: WebhookHost,
    kind: KindRef<T>,
  ) {
    this.kind = host.kinds.resolve(kind);
  }

  /** A defaulter at `/mutate-<group>-<version>-<kind>` (or `path`). */
  withDefaulter(defaulter: Defaulter<T>, path?: string): this {
    this.defaulter = { handler: defaulter, path };
    return this;
  }

  /** A validator at `/validate-<group>-<version>-<kind>` (or `path`). */
  withValidator(validator: Validator<T>, path?: string): this {
    this.validator = { handler: validator, path };
    return this;
  }

  /** The kind's hub and spokes, served at `/convert`; its group and kind must be this builder's. */
  withConversion<H extends KubeObject>(conversion: KindConversion<H>): this {
    if (conversion.groupKind !== groupKindOf(this.kind)) {
      throw new Error(`webhookFor(${groupKindOf(this.kind)}).withConversion: the conversion is for ${conversion.groupKind}`);
    }
    this.conversion = conversion as unknown as KindConversion<KubeObject>;
    return this;
  }

  /** Registers everything given; returns the paths served. */
  complete(): string[] {
    const server = this.host.webhookServer;
    const paths: string[] = [];
    if (this.defaulter) paths.push(server.registerDefaulter(this.kind, this.defaulter.handler, this.defaulter.path ?? mutatePath(this.kind)));
    if (this.validator) paths.push(server.registerValidator(this.kind, this.validator.handler, this.validator.path ?? validatePath(this.kind)));
    if (this.conversion) paths.push(server.registerConversion(this.conversion));
    if (paths.length === 0) throw new Error(`webhookFor(${groupKindOf(this.kind)}): nothing to register (add a defaulter, a validator or a conversion)`);
    return paths;
  }
}
