/**
 * The ServiceAccount admission plugin (1.32's plugin/pkg/admission/serviceaccount): a new pod runs as
 * `default` unless it names an account; the account must exist (403 "error looking up service account
 * ns/name: serviceaccount "name" not found"); unless the pod or the account turns automounting off, every
 * container and init container mounts the projected `kube-api-access-<5 chars>` volume (bound token,
 * kube-root-ca.crt, namespace) read-only at /var/run/secrets/kubernetes.io/serviceaccount; a pod without
 * imagePullSecrets takes the account's.
 *
 * The real plugin retries a missing `default` account for about a second, as the ServiceAccount controller
 * creates it right after the namespace; here admission is synchronous, so a missing `default` account of
 * an active namespace counts as that account about to exist (with no settings of its own).
 */
import type { PodSpec, ProjectedVolumeSource, ServiceAccount, Volume, VolumeMount } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';
import type { Stored } from '../../store/object-store.js';
import { SeededRandom } from '../../registry/system-metadata.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { admissionForbidden } from './admission-errors.js';

export const serviceAccountTokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
const tokenVolumePrefix = 'kube-api-access-';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and seven seconds. */
const tokenExpirationSeconds = 3607;
const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

/** The projected volume source 1.32 mounts (TokenVolumeSource), defaultMode set explicitly. */
function tokenVolumeSource(): ProjectedVolumeSource {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: tokenExpirationSeconds, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

function isPodCreate(request: AdmissionRequest): boolean {
  return request.operation === 'CREATE' && request.rt.group === '' && request.rt.resource === 'pods' && !request.subresource;
}

export class ServiceAccountAdmission implements AdmissionPlugin {
  private readonly random: SeededRandom;

  constructor(private readonly services: AdmissionServices) {
    this.random = services.random ?? new SeededRandom(1);
  }

  admit(request: AdmissionRequest): void {
    const pod = request.object;
    if (!isPodCreate(request) || !pod?.spec || typeof pod.spec !== 'object') return;
    if (pod.metadata?.annotations?.[mirrorPodAnnotation] !== undefined) return this.validate(request);
    const spec = pod.spec as PodSpec;
    // the deprecated spec.serviceAccount converts to serviceAccountName before admission
    spec.serviceAccountName ||= spec.serviceAccount || 'default';
    const account = this.lookUp(request, spec.serviceAccountName);
    const automount = spec.automountServiceAccountToken ?? account.automountServiceAccountToken ?? true;
    if (automount) this.mountToken(spec);
    if (!Array.isArray(spec.imagePullSecrets) || spec.imagePullSecrets.length === 0) {
      const secrets = (account.imagePullSecrets ?? []).map((s: { name?: string }) => ({ name: s?.name }));
      if (secrets.length) spec.imagePullSecrets = secrets;
    }
    this.validate(request);
  }

  validate(request: AdmissionRequest): void {
    const pod = request.object;
    if (!isPodCreate(request) || !pod?.spec || typeof pod.spec !== 'object') return;
    const spec = pod.spec as PodSpec;
    if (pod.metadata?.annotations?.[mirrorPodAnnotation] !== undefined) {
      if (spec.serviceAccountName) throw admissionForbidden(request, ['a mirror pod may not reference service accounts']);
      return;
    }
    if (!spec.serviceAccountName) {
      throw admissionForbidden(request, [`no service account specified for pod ${request.namespace}/${request.name}`]);
    }
    this.lookUp(request, spec.serviceAccountName);
  }

  private lookUp(request: AdmissionRequest, name: string): Readonly<Stored<ServiceAccount>> {
    const namespace = request.namespace ?? '';
    const found = this.services.store.peek('serviceaccounts', namespace, name);
    if (found) return asStored<ServiceAccount>(found);
    const ns = this.services.store.peek('namespaces', undefined, namespace);
    if (name === 'default' && ns && !ns.metadata.deletionTimestamp) return { metadata: { name, namespace } };
    throw admissionForbidden(request, [`error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`]);
  }

  /** mountServiceAccountToken: one volume (reused if the pod has one), a mount in each container lacking the path. */
  private mountToken(spec: PodSpec): void {
    const volumes: Volume[] = Array.isArray(spec.volumes) ? spec.volumes : [];
    const existing = volumes.find((v) => typeof v?.name === 'string' && v.name.startsWith(tokenVolumePrefix));
    const volumeName: string = existing?.name ?? `${tokenVolumePrefix}${this.random.nameSuffix()}`;
    let needsVolume = false;
    for (const list of [spec.initContainers, spec.containers]) {
      for (const container of Array.isArray(list) ? list : []) {
        if (!container || typeof container !== 'object') continue;
        const mounts: VolumeMount[] = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
        if (mounts.some((m) => m?.mountPath === serviceAccountTokenMountPath)) continue;
        container.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: serviceAccountTokenMountPath }];
        needsVolume = true;
      }
    }
    if (!existing && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
  }
}
