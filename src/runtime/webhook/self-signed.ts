/**
 * A self-signed CA and a serving certificate for 127.0.0.1/localhost, so the webhook server can serve
 * HTTPS in local runs and tests without cert-manager (the CA goes into the configurations' caBundle);
 * made by the shared src/certificates module.
 */
import { createCertificateAuthority, issueServingCertificate } from '../../certificates/self-signed.js';

export interface WebhookCertificates {
  caPem: string;
  certPem: string;
  keyPem: string;
}

export async function selfSignedWebhookCertificates(hosts: string[] = ['127.0.0.1', 'localhost'], now = new Date()): Promise<WebhookCertificates> {
  const ca = await createCertificateAuthority('kubeforge-webhook-ca', { now });
  const serving = await issueServingCertificate(ca, 'kubeforge-webhook', hosts, { now });
  return { caPem: ca.certPem, certPem: serving.certPem, keyPem: serving.keyPem };
}
