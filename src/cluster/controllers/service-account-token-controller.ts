/**
 * The token controller of kube-controller-manager (tokens_controller.go): fills a
 * `kubernetes.io/service-account-token` Secret with a never-expiring legacy token of the ServiceAccount it
 * names, the cluster CA and the namespace, and records the ServiceAccount's uid; deletes the Secret when
 * that ServiceAccount is gone (or is another one with a new uid). Since 1.24 it never creates Secrets itself.
 */
import type { ServiceAccountTokenIssuer } from '../http/service-account-issuer.js';
import type { KubeObject, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
export const serviceAccountNameAnnotation = 'kubernetes.io/service-account.name';
export const serviceAccountUidAnnotation = 'kubernetes.io/service-account.uid';

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const keyOf = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;

export class ServiceAccountTokenController implements BuiltinController {
  readonly name = 'serviceaccount-token-controller';

  constructor(private readonly client: ControllerClient, private readonly issuer: ServiceAccountTokenIssuer, private readonly caCertPem: string | undefined) {}

  initialKeys(): string[] {
    return this.client.listShared('secrets').filter((s) => s.type === serviceAccountTokenType).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === 'secrets') return event.type !== 'DELETED' && o.type === serviceAccountTokenType ? [keyOf(o)] : [];
    if (event.bucket !== 'serviceaccounts') return [];
    // a ServiceAccount deleted or made: the token Secrets naming it
    return this.client
      .listShared('secrets', o.metadata.namespace)
      .filter((s) => s.type === serviceAccountTokenType && s.metadata.annotations?.[serviceAccountNameAnnotation] === o.metadata.name)
      .map(keyOf);
  }

  reconcile(key: string): void {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const secret = this.client.get('secrets', namespace, key.slice(slash + 1));
    if (!secret || secret.type !== serviceAccountTokenType || secret.metadata.deletionTimestamp) return;
    const annotations = secret.metadata.annotations ?? {};
    const serviceAccount = this.client.get('serviceaccounts', namespace, annotations[serviceAccountNameAnnotation] ?? '');
    const wantedUid = annotations[serviceAccountUidAnnotation];
    if (!serviceAccount || (wantedUid && wantedUid !== serviceAccount.metadata.uid)) {
      this.client.delete('secrets', namespace, secret.metadata.name, { preconditions: { uid: secret.metadata.uid } });
      return;
    }
    const data: Record<string, string> = { ...(secret.data ?? {}) };
    const ca = this.caCertPem ? base64(this.caCertPem) : undefined;
    const needsCa = ca !== undefined && data['ca.crt'] !== ca;
    const needsNamespace = !data.namespace;
    const needsToken = !data.token;
    if (!needsCa && !needsNamespace && !needsToken) return;
    if (ca !== undefined) data['ca.crt'] = ca;
    if (needsNamespace) data.namespace = base64(namespace);
    if (needsToken) {
      const owner = { name: serviceAccount.metadata.name, uid: serviceAccount.metadata.uid ?? '' };
      data.token = base64(this.issuer.signLegacy(namespace, owner, secret.metadata.name));
    }
    secret.data = data;
    secret.metadata.annotations = { ...annotations, [serviceAccountNameAnnotation]: serviceAccount.metadata.name, [serviceAccountUidAnnotation]: serviceAccount.metadata.uid ?? '' };
    this.client.update('secrets', secret);
  }
}
