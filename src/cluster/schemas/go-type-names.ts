/**
 * The Go types of built-in fields whose type is a named Go type rather than a plain string, slice or
 * map (`PodSpec.restartPolicy` is a `v1.RestartPolicy`), for the decoder's `of type …` messages. Keyed by
 * `<Go struct>.<json field>`; written from the Kubernetes 1.32 API types (k8s.io/api, apimachinery).
 */
export const GO_FIELD_TYPES: Readonly<Record<string, string>> = {
  // core/v1 pods and containers
  'PodSpec.restartPolicy': 'v1.RestartPolicy',
  'PodSpec.dnsPolicy': 'v1.DNSPolicy',
  'PodSpec.preemptionPolicy': 'v1.PreemptionPolicy',
  'PodOS.name': 'v1.OSName',
  'Container.imagePullPolicy': 'v1.PullPolicy',
  'Container.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'Container.restartPolicy': 'v1.ContainerRestartPolicy',
  'EphemeralContainer.imagePullPolicy': 'v1.PullPolicy',
  'EphemeralContainer.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'EphemeralContainer.restartPolicy': 'v1.ContainerRestartPolicy',
  'ContainerPort.protocol': 'v1.Protocol',
  'ContainerResizePolicy.resourceName': 'v1.ResourceName',
  'ContainerResizePolicy.restartPolicy': 'v1.ResourceResizeRestartPolicy',
  'ResourceRequirements.limits': 'v1.ResourceList',
  'ResourceRequirements.requests': 'v1.ResourceList',
  'VolumeResourceRequirements.limits': 'v1.ResourceList',
  'VolumeResourceRequirements.requests': 'v1.ResourceList',
  'Capabilities.add': '[]v1.Capability',
  'Capabilities.drop': '[]v1.Capability',
  'SecurityContext.procMount': 'v1.ProcMountType',
  'PodSecurityContext.fsGroupChangePolicy': 'v1.PodFSGroupChangePolicy',
  'PodSecurityContext.supplementalGroupsPolicy': 'v1.SupplementalGroupsPolicy',
  'SeccompProfile.type': 'v1.SeccompProfileType',
  'AppArmorProfile.type': 'v1.AppArmorProfileType',
  'HTTPGetAction.scheme': 'v1.URIScheme',
  'Toleration.operator': 'v1.TolerationOperator',
  'Toleration.effect': 'v1.TaintEffect',
  'Taint.effect': 'v1.TaintEffect',
  'NodeSelectorRequirement.operator': 'v1.NodeSelectorOperator',
  'TopologySpreadConstraint.whenUnsatisfiable': 'v1.UnsatisfiableConstraintAction',
  'TopologySpreadConstraint.nodeAffinityPolicy': 'v1.NodeInclusionPolicy',
  'TopologySpreadConstraint.nodeTaintsPolicy': 'v1.NodeInclusionPolicy',
  'HostPathVolumeSource.type': 'v1.HostPathType',
  'EmptyDirVolumeSource.medium': 'v1.StorageMedium',
  'PodCondition.type': 'v1.PodConditionType',
  'PodCondition.status': 'v1.ConditionStatus',
  'PodStatus.phase': 'v1.PodPhase',
  'PodStatus.qosClass': 'v1.PodQOSClass',
  // core/v1 services, volumes, namespaces, secrets, nodes
  'ServiceSpec.type': 'v1.ServiceType',
  'ServiceSpec.sessionAffinity': 'v1.ServiceAffinity',
  'ServiceSpec.externalTrafficPolicy': 'v1.ServiceExternalTrafficPolicy',
  'ServiceSpec.internalTrafficPolicy': 'v1.ServiceInternalTrafficPolicy',
  'ServiceSpec.ipFamilies': '[]v1.IPFamily',
  'ServiceSpec.ipFamilyPolicy': 'v1.IPFamilyPolicy',
  'ServicePort.protocol': 'v1.Protocol',
  'PersistentVolumeClaimSpec.accessModes': '[]v1.PersistentVolumeAccessMode',
  'PersistentVolumeClaimSpec.volumeMode': 'v1.PersistentVolumeMode',
  'NamespaceSpec.finalizers': '[]v1.FinalizerName',
  'NamespaceStatus.phase': 'v1.NamespacePhase',
  'Secret.type': 'v1.SecretType',
  'NodeStatus.capacity': 'v1.ResourceList',
  'NodeStatus.allocatable': 'v1.ResourceList',
  'NodeStatus.phase': 'v1.NodePhase',
  'NodeCondition.type': 'v1.NodeConditionType',
  'NodeCondition.status': 'v1.ConditionStatus',
  // meta/v1
  'ObjectMeta.uid': 'types.UID',
  'OwnerReference.uid': 'types.UID',
  'ManagedFieldsEntry.operation': 'v1.ManagedFieldsOperationType',
  'LabelSelectorRequirement.operator': 'v1.LabelSelectorOperator',
  'Condition.status': 'v1.ConditionStatus',
  // apps/v1
  'DeploymentStrategy.type': 'v1.DeploymentStrategyType',
  'DeploymentCondition.type': 'v1.DeploymentConditionType',
  'DeploymentCondition.status': 'v1.ConditionStatus',
  // batch/v1
  'JobSpec.completionMode': 'v1.CompletionMode',
  'JobSpec.podReplacementPolicy': 'v1.PodReplacementPolicy',
  'JobCondition.type': 'v1.JobConditionType',
  'JobCondition.status': 'v1.ConditionStatus',
  'CronJobSpec.concurrencyPolicy': 'v1.ConcurrencyPolicy',
  'PodFailurePolicyRule.action': 'v1.PodFailurePolicyAction',
  'PodFailurePolicyOnExitCodesRequirement.operator': 'v1.PodFailurePolicyOnExitCodesOperator',
  'PodFailurePolicyOnPodConditionsPattern.type': 'v1.PodConditionType',
  'PodFailurePolicyOnPodConditionsPattern.status': 'v1.ConditionStatus',
  // coordination, admissionregistration
  'LeaseSpec.strategy': 'v1.CoordinatedLeaseStrategy',
  'ValidatingWebhook.failurePolicy': 'v1.FailurePolicyType',
  'ValidatingWebhook.matchPolicy': 'v1.MatchPolicyType',
  'ValidatingWebhook.sideEffects': 'v1.SideEffectClass',
  'MutatingWebhook.failurePolicy': 'v1.FailurePolicyType',
  'MutatingWebhook.matchPolicy': 'v1.MatchPolicyType',
  'MutatingWebhook.sideEffects': 'v1.SideEffectClass',
  'MutatingWebhook.reinvocationPolicy': 'v1.ReinvocationPolicyType',
  'RuleWithOperations.operations': '[]v1.OperationType',
  'RuleWithOperations.scope': 'v1.ScopeType',
};

/** The Go type of `<struct>.<field>` if it is a named type, and of one element for a slice/map value. */
export function goFieldType(struct: string, field: string, element: boolean): string | undefined {
  const declared = GO_FIELD_TYPES[`${struct}.${field}`];
  if (!declared || !element) return declared;
  return declared.startsWith('[]') ? declared.slice(2) : undefined;
}
