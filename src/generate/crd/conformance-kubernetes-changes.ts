/**
 * What Kubernetes changed after 1.32 in the types the conformance goldens use: controller-tools v0.21.0 made
 * its goldens from a newer k8s.io/api, kubeforge renders Kubernetes' 1.32 definitions. Each entry is a change
 * of Kubernetes, not of kubeforge; conformance-compare.ts sets these aside and reports them.
 */
import type { NewerKubernetes } from './conformance-compare.js';

export const KUBERNETES_CHANGES_AFTER_1_32: NewerKubernetes = {
  addedFields: [
    'fileKeyRef', // EnvVarSource.fileKeyRef (EnvFiles)
    'stopSignal', // Lifecycle.stopSignal (ContainerStopSignals)
    'restartPolicyRules', // Container.restartPolicyRules (ContainerRestartRules)
    'hostnameOverride', // PodSpec.hostnameOverride (HostnameOverride)
    'schedulingGroup', // PodSpec.schedulingGroup
    'podCertificate', // VolumeProjection.podCertificate (PodCertificateRequest)
  ],
  noLongerRequired: [
    // PodFailurePolicyOnPodConditionsPattern.status: required in 1.32, optional (defaults to True) later.
    'spec.jobTemplate.spec.podFailurePolicy.rules[].onPodConditions[]:status',
  ],
};
