/**
 * The webhook server: HTTPS (a self-signed certificate for local runs unless one is given), serving
 * AdmissionReview (admission.k8s.io/v1) for defaulters and validators and ConversionReview
 * (apiextensions.k8s.io/v1) for converters, at kubebuilder's paths. HTTP/1.1 only unless `enableHttp2`
 * (kubebuilder's `--enable-http2`, see manager/secure-serving.ts).
 */
import type { Logger } from 'pino';
import type { KindInfo } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { mutatePath, runDefaulter, runValidator, validatePath, type AdmissionRequest, type Converter, type Defaulter, type Validator } from './admission.js';
import { ConversionWebhook, ReviewError, type KindConversion } from './conversion.js';
import { selfSignedWebhookCertificates, type WebhookCertificates } from './self-signed.js';
import { listenSecure, type SecureListener } from '../manager/secure-serving.js';
import { errorMessage } from '../as-error.js';

export interface WebhookServerOptions {
  /** Port on `host` (default 0 = any free port; kubebuilder uses 9443 in clusters). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1); '' listens on every interface, as in a pod. */
  host?: string;
  /** Serving certificate; default a fresh self-signed CA + certificate for 127.0.0.1/localhost. */
  certificates?: WebhookCertificates;
  /** Offer HTTP/2 too (default false: HTTP/1.1 only, as kubebuilder's `--enable-http2=false`). */
  enableHttp2?: boolean;
  logger?: Logger;
}

type Handler = (body: Record<string, unknown>) => Promise<Record<string, unknown>>;

export class WebhookServer {
  private readonly handlers = new Map<string, Handler>();
  private server: SecureListener | undefined;
  private conversion: ConversionWebhook | undefined;
  private certs: WebhookCertificates | undefined;
  port: number | undefined;

  constructor(private readonly options: WebhookServerOptions = {}) {}

  /** True once any handler is registered (the manager starts the server only then). */
  hasHandlers(): boolean {
    return this.handlers.size > 0;
  }

  paths(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * The kinds (`Kind.group`) the server's `/convert` handler converts: those registered with
   * `registerConversion` (a plain `registerConverter` names no kinds).
   */
  convertedKinds(): string[] {
    return this.conversion?.groupKinds() ?? [];
  }

  /** Listening (controller-runtime's StartedChecker: the server has started). */
  started(): boolean {
    return this.server !== undefined;
  }

  /** The CA that signed the serving certificate (for caBundle), once started. */
  caPem(): string {
    if (!this.certs) throw new Error('webhook server not started');
    return this.certs.caPem;
  }

  registerDefaulter<T extends KubeObject>(kind: KindInfo<T>, defaulter: Defaulter<T>, path = mutatePath(kind)): string {
    this.handlers.set(path, async (review) => admissionReview(await runDefaulter(defaulter, review.request as AdmissionRequest<T>)));
    return path;
  }

  registerValidator<T extends KubeObject>(kind: KindInfo<T>, validator: Validator<T>, path = validatePath(kind)): string {
    this.handlers.set(path, async (review) => admissionReview(await runValidator(validator, review.request as AdmissionRequest<T>)));
    return path;
  }

  /**
   * Adds a kind's hub-and-spoke conversion to the server's one `/convert` handler (registered with the
   * first kind, as controller-runtime's builder registers its ConversionWebhook once per manager).
   */
  registerConversion<H extends KubeObject>(conversion: KindConversion<H>): string {
    const path = '/convert';
    if (!this.conversion) {
      const webhook = new ConversionWebhook();
      this.conversion = webhook;
      this.handlers.set(path, (review) => webhook.review(review));
    }
    this.conversion.add(conversion as unknown as KindConversion);
    return path;
  }

  /** A single function that converts any object to the desired apiVersion (no hub and spokes). */
  registerConverter(converter: Converter, path = '/convert'): string {
    if (path === '/convert') this.conversion = undefined;
    this.handlers.set(path, async (review) => {
      const request = review.request as { uid: string; desiredAPIVersion: string; objects: KubeObject[] };
      try {
        const convertedObjects = await Promise.all(request.objects.map((o) => converter(o, request.desiredAPIVersion)));
        return conversionReview({ uid: request.uid, convertedObjects, result: { status: 'Success' } });
      } catch (err) {
        return conversionReview({ uid: request.uid, convertedObjects: [], result: { status: 'Failure', message: errorMessage(err) } });
      }
    });
    return path;
  }

  async start(): Promise<number> {
    this.certs = this.options.certificates ?? (await selfSignedWebhookCertificates());
    const serving = { certPem: this.certs.certPem, keyPem: this.certs.keyPem, enableHttp2: this.options.enableHttp2 };
    const host = this.options.host ?? '127.0.0.1';
    this.server = await listenSecure(serving, host === '' ? undefined : host, this.options.port ?? 0, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.answer(req.url ?? '/', Buffer.concat(chunks).toString('utf8'), res));
    });
    this.port = this.server.port;
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await server.stop();
  }

  private async answer(url: string, text: string, res: import('node:http').ServerResponse): Promise<void> {
    const handler = this.handlers.get(url.split('?')[0]!);
    if (!handler) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no webhook at ${url}\n`);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
      if (!body.request || typeof body.request !== 'object') throw new Error('missing request');
    } catch (err) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`invalid review: ${(err as Error).message}\n`);
      return;
    }
    try {
      const answer = await handler(body);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    } catch (err) {
      const badRequest = err instanceof ReviewError;
      this.options.logger?.error({ err: String(err), path: url }, 'webhook handler failed');
      res.writeHead(badRequest ? 400 : 500, { 'Content-Type': 'text/plain' }).end(badRequest ? `invalid review: ${err.message}\n` : `webhook failed: ${String(err)}\n`);
    }
  }
}

function admissionReview(response: unknown): Record<string, unknown> {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}

function conversionReview(response: unknown): Record<string, unknown> {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response };
}
