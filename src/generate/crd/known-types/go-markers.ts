/**
 * Markers of the Kubernetes 1.32 Go types (k8s.io/api v0.32.0, k8s.io/apimachinery v0.32.0) that
 * controller-gen applies but the OpenAPI definitions the local cluster serves do not carry: the
 * `+kubebuilder:validation:*` markers kube-openapi ignores (metav1.Condition), and `+structType=atomic` /
 * `+default=` markers the definitions' marker table lacks. Keyed by `<definition>` (type level) or
 * `<definition>.<field>`; each value is merged into the rendered schema of that type or field.
 */
import type { Schema } from '../schema.js';

const CORE = 'io.k8s.api.core.v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export const GO_MARKERS: Readonly<Record<string, Schema>> = {
  // +structType=atomic
  [`${CORE}.ConfigMapEnvSource`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.SecretEnvSource`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.ConfigMapVolumeSource`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.ConfigMapProjection`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.SecretProjection`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.SecretReference`]: { 'x-kubernetes-map-type': 'atomic' },
  [`${CORE}.TypedLocalObjectReference`]: { 'x-kubernetes-map-type': 'atomic' },
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

/**
 * Field docs the definitions lost: for these IntOrString fields the extraction wrote IntOrString's own doc as
 * the field's. Taken from the doc comments of kubernetes-types (v1.30; unchanged in v1.32).
 */
export const FIELD_DOCS: Readonly<Record<string, string>> = {
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet.maxSurge':
    "The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up to a minimum of 1. Default value is 0. Example: when this is set to 30%, at most 30% of the total number of nodes that should be running the daemon pod (i.e. status.desiredNumberScheduled) can have their a new pod created before the old pod is marked as deleted. The update starts by launching new pods on 30% of nodes. Once an updated pod is available (Ready for at least minReadySeconds) the old DaemonSet pod on that node is marked deleted. If the old pod becomes unavailable for any reason (Ready transitions to false, is evicted, or is drained) an updated pod is immediatedly created on that node without considering surge limits. Allowing surge implies the possibility that the resources consumed by the daemonset on any given node can double if the readiness check fails, and so resource intensive daemonsets should take into account that they may cause evictions during disruption.",
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet.maxUnavailable':
    "The maximum number of DaemonSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of total number of DaemonSet pods at the start of the update (ex: 10%). Absolute number is calculated from percentage by rounding up. This cannot be 0 if MaxSurge is 0 Default value is 1. Example: when this is set to 30%, at most 30% of the total number of nodes that should be running the daemon pod (i.e. status.desiredNumberScheduled) can have their pods stopped for an update at any given time. The update starts by stopping at most 30% of those DaemonSet pods and then brings up new DaemonSet pods in their place. Once the new pods are available, it then proceeds onto other DaemonSet pods, thus ensuring that at least 70% of original number of DaemonSet pods are available at all times during the update.",
  'io.k8s.api.apps.v1.RollingUpdateDeployment.maxSurge':
    "The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up. Defaults to 25%. Example: when this is set to 30%, the new ReplicaSet can be scaled up immediately when the rolling update starts, such that the total number of old and new pods do not exceed 130% of desired pods. Once old pods have been killed, new ReplicaSet can be scaled up further, ensuring that total number of pods running at any time during the update is at most 130% of desired pods.",
  'io.k8s.api.apps.v1.RollingUpdateDeployment.maxUnavailable':
    "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding down. This can not be 0 if MaxSurge is 0. Defaults to 25%. Example: when this is set to 30%, the old ReplicaSet can be scaled down to 70% of desired pods immediately when the rolling update starts. Once new pods are ready, old ReplicaSet can be scaled down further, followed by scaling up the new ReplicaSet, ensuring that the total number of pods available at all times during the update is at least 70% of desired pods.",
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy.maxUnavailable':
    "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding up. This can not be 0. Defaults to 1. This field is alpha-level and is only honored by servers that enable the MaxUnavailableStatefulSet feature. The field applies to all pods in the range 0 to Replicas-1. That means if there is any unavailable pod in the range 0 to Replicas-1, it will be counted towards MaxUnavailable.",
  'io.k8s.api.core.v1.HTTPGetAction.port':
    "Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.",
  'io.k8s.api.core.v1.ServicePort.targetPort':
    "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map). This field is ignored for services with clusterIP=None, and should be omitted or set equal to the 'port' field. More info: https://kubernetes.io/docs/concepts/services-networking/service/#defining-a-service",
  'io.k8s.api.core.v1.TCPSocketAction.port':
    "Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.",
  'io.k8s.api.networking.v1.NetworkPolicyPort.port':
    "port represents the port on the given protocol. This can either be a numerical or named port on a pod. If this field is not provided, this matches all port names and numbers. If present, only traffic on the specified protocol AND port will be matched.",
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.maxUnavailable':
    "An eviction is allowed if at most \"maxUnavailable\" pods selected by \"selector\" are unavailable after the eviction, i.e. even in absence of the evicted pod. For example, one can prevent all voluntary evictions by specifying 0. This is a mutually exclusive setting with \"minAvailable\".",
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.minAvailable':
    "An eviction is allowed if at least \"minAvailable\" pods selected by \"selector\" will still be available after the eviction, i.e. even in the absence of the evicted pod.  So for example you can prevent all voluntary evictions by specifying \"100%\".",
};
