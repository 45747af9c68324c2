/**
 * Markers of the Kubernetes 1.32 Go types (k8s.io/api v0.32.0, k8s.io/apimachinery v0.32.0) that
 * controller-gen applies but the OpenAPI definitions the local cluster serves do not carry: the
 * `+kubebuilder:validation:*` markers kube-openapi ignores (metav1.Condition), and `+structType=atomic` /
 * `+default=` markers the definitions' marker table lacks. (Field docs the definitions lost are in
 * missing-field-docs.generated.ts.) Keyed by `<definition>` (type level) or
 * `<definition>.<field>`; each value is merged into the rendered schema of that type or field.
 */
import type { Schema } from '../schema.js';

const CORE = 'io.k8s.api.core.v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ADMISSION = 'io.k8s.api.admissionregistration.v1';

export const GO_MARKERS: Readonly<Record<string, Schema>> = {
  // +structType=atomic
  [`${CORE}.ConfigMapEnvSource`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.SecretEnvSource`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.ConfigMapVolumeSource`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.ConfigMapProjection`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.SecretProjection`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.SecretReference`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.TypedLocalObjectReference`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${ADMISSION}.MatchResources`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${ADMISSION}.NamedRuleWithOperations`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${ADMISSION}.ParamKind`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${ADMISSION}.ParamRef`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${ADMISSION}.Variable`]: { 'x-kubernetes-map-type': 'atomic' },
  // +default=
  [`${CORE}.GRPCAction.service`]: { default: '' },
  [`${CORE}.AzureDiskVolumeSource.fsType`]: { default: 'ext4' },
  [`${CORE}.AzureDiskVolumeSource.readOnly`]: { default: false },
  [`${CORE}.ISCSIVolumeSource.iscsiInterface`]: { default: 'default' },
  [`${CORE}.ISCSIPersistentVolumeSource.iscsiInterface`]: { default: 'default' },
  [`${CORE}.RBDVolumeSource.keyring`]: { default: '/etc/ceph/keyring' },
  [`${CORE}.RBDVolumeSource.pool`]: { default: 'rbd' },
  [`${CORE}.RBDVolumeSource.user`]: { default: 'admin' },
  [`${CORE}.RBDPersistentVolumeSource.keyring`]: { default: '/etc/ceph/keyring' },
  [`${CORE}.RBDPersistentVolumeSource.pool`]: { default: 'rbd' },
  [`${CORE}.RBDPersistentVolumeSource.user`]: { default: 'admin' },
  [`${CORE}.ScaleIOVolumeSource.fsType`]: { default: 'xfs' },
  [`${CORE}.ScaleIOVolumeSource.storageMode`]: { default: 'ThinProvisioned' },
  [`${CORE}.ScaleIOPersistentVolumeSource.fsType`]: { default: 'xfs' },
  [`${CORE}.ScaleIOPersistentVolumeSource.storageMode`]: { default: 'ThinProvisioned' },
  // metav1.Condition's +kubebuilder:validation markers
  [`${META}.Condition.type`]: {
    maxLength: 316,
    pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
  },
  [`${META}.Condition.status`]: { enum: ['True', 'False', 'Unknown'] },
  [`${META}.Condition.observedGeneration`]: { minimum: 0 },
  [`${META}.Condition.reason`]: { maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' },
  [`${META}.Condition.message`]: { maxLength: 32768 },
};

