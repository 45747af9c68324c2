/**
 * cert-manager's CA injector in the local cluster: a Validating/MutatingWebhookConfiguration or a
 * CustomResourceDefinition annotated `cert-manager.io/inject-ca-from: <namespace>/<certificate>`
 * (or `cert-manager.io/inject-ca-from-secret: <namespace>/<secret>`) gets the `ca.crt` of that
 * Certificate's Secret as the caBundle of every webhook's clientConfig (for a CRD: its conversion
 * webhook's, when the strategy is Webhook) — and again whenever that Secret changes.
 */
import type { MutatingWebhook, MutatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1.js';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { Secret } from 'kubernetes-types/core/v1.js';
import type { ControllerClient } from '../controllers/controller-client.js';
import type { BuiltinController } from '../controllers/controller-scheduler.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, StoreEvent } from '../store/object-store.js';
import { certManagerGroup } from './cert-manager-crds.js';
import type { Certificate } from './cert-manager-types.js';

export const injectFromCertificate = 'cert-manager.io/inject-ca-from';
export const injectFromSecret = 'cert-manager.io/inject-ca-from-secret';

const targets: Record<string, string> = {
  'validatingwebhookconfigurations.admissionregistration.k8s.io': 'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': 'admissionregistration.k8s.io/mutatingwebhookconfigurations',
  'customresourcedefinitions.apiextensions.k8s.io': 'apiextensions.k8s.io/customresourcedefinitions',
};

const annotated = (o: KubeObject): boolean => Boolean(o.metadata.annotations?.[injectFromCertificate] || o.metadata.annotations?.[injectFromSecret]);

export class CaInjector implements BuiltinController {
  readonly name = 'cert-manager-cainjector';

  constructor(private readonly client: ControllerClient) {}

  private annotatedKeys(filter: (o: KubeObject) => boolean = () => true): string[] {
    return Object.entries(targets).flatMap(([bucket, resource]) => this.client.list(resource).filter((o) => annotated(o) && filter(o)).map((o) => `${bucket}|${o.metadata.name}`));
  }

  initialKeys(): string[] {
    return this.annotatedKeys();
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (targets[event.bucket]) return event.type !== 'DELETED' && annotated(o) ? [`${event.bucket}|${o.metadata.name}`] : [];
    if (event.bucket === 'secrets') {
      const ns = o.metadata.namespace;
      const certificate = o.metadata.annotations?.['cert-manager.io/certificate-name'];
      return this.annotatedKeys((t) => t.metadata.annotations?.[injectFromSecret] === `${ns}/${o.metadata.name}` || (certificate !== undefined && t.metadata.annotations?.[injectFromCertificate] === `${ns}/${certificate}`));
    }
    if (event.bucket === `certificates.${certManagerGroup}`) {
      return this.annotatedKeys((t) => t.metadata.annotations?.[injectFromCertificate] === `${o.metadata.namespace}/${o.metadata.name}`);
    }
    return [];
  }

  /** The base64 PEM CA bundle the annotation points at (undefined: not there yet). */
  private caBundleFor(object: KubeObject): string | undefined {
    const fromSecret = object.metadata.annotations?.[injectFromSecret];
    const fromCertificate = object.metadata.annotations?.[injectFromCertificate];
    let secretRef: [string, string] | undefined;
    if (fromSecret) secretRef = fromSecret.split('/', 2) as [string, string];
    else if (fromCertificate && this.client.typeOfBucket(`certificates.${certManagerGroup}`)) {
      const [ns, name] = fromCertificate.split('/', 2) as [string, string];
      const certificate = ns && name ? this.client.get(`${certManagerGroup}/certificates`, ns, name) : undefined;
      const secretName = certificate && asStored<Certificate>(certificate).spec?.secretName;
      if (secretName) secretRef = [ns, secretName];
    }
    if (!secretRef || !secretRef[0] || !secretRef[1]) return undefined;
    const secret = this.client.get('secrets', secretRef[0], secretRef[1]);
    return (secret && asStored<Secret>(secret).data?.['ca.crt']) || undefined;
  }

  reconcile(key: string): void {
    const [bucket, name] = key.split('|') as [string, string];
    const resource = targets[bucket]!;
    const object = this.client.get(resource, undefined, name);
    if (!object || !annotated(object)) return;
    const caBundle = this.caBundleFor(object);
    if (!caBundle) return;
    if (bucket.startsWith('customresourcedefinitions')) {
      const { spec } = asStored<CustomResourceDefinition>(object);
      const webhook = spec?.conversion?.webhook;
      if (spec?.conversion?.strategy !== 'Webhook' || !webhook?.clientConfig || webhook.clientConfig.caBundle === caBundle) return;
      this.client.update(resource, { ...object, spec: { ...spec, conversion: { ...spec.conversion, webhook: { ...webhook, clientConfig: { ...webhook.clientConfig, caBundle } } } } });
      return;
    }
    const webhooks: MutatingWebhook[] = asStored<MutatingWebhookConfiguration>(object).webhooks ?? [];
    if (webhooks.every((w) => w.clientConfig?.caBundle === caBundle)) return;
    this.client.update(resource, { ...object, webhooks: webhooks.map((w) => ({ ...w, clientConfig: { ...w.clientConfig, caBundle } })) });
  }
}
