/**
 * Named Go types of k8s.io/api and apimachinery 1.32 (`type TaintEffect string`, `type ResourceList
 * map[ResourceName]resource.Quantity`): OpenAPI has no definition for them (a field of such a type is a plain
 * string there), so the catalogue lists them here, keyed like the definitions (`core/v1.TaintEffect`). A field of
 * one of them gets what controller-gen gives: the type's schema, and the field's doc or else the type's.
 * `doc` is the Go type's own doc comment where it has one (many `+enum` types have none); Protocol has none in
 * the output because controller-gen replaces its schema by a hard-coded one (known_types.go: default TCP).
 */
import type { Schema } from '../schema.js';

export interface GoNamedType {
  doc: string;
  schema: () => Schema;
}

const text = (): Schema => ({ type: 'string' });

/** Docs of the named types that have one, from the k8s.io/api v0.32 sources. */
const DOCS: Record<string, string> = {
  'core/v1.PullPolicy': 'PullPolicy describes a policy for if/when to pull a container image',
  'core/v1.ResourceName': 'ResourceName is the name identifying various resources in a ResourceList.',
  'core/v1.ResourceList': 'ResourceList is a set of (resource name, quantity) pairs.',
  'core/v1.URIScheme': 'URIScheme identifies the scheme used for connection to a host for Get actions',
  'core/v1.TolerationOperator': 'A toleration operator is the set of operators that can be used in a toleration.',
  'core/v1.PodQOSClass': 'PodQOSClass defines the supported qos classes of Pods.',
  'core/v1.MountPropagationMode': 'MountPropagationMode describes mount propagation.',
  'core/v1.StorageMedium': 'StorageMedium defines ways that storage can be allocated to a volume.',
  'core/v1.PersistentVolumeMode': 'PersistentVolumeMode describes how a volume is intended to be consumed, either Block or Filesystem.',
  'core/v1.Capability': 'Capability represent POSIX capabilities type',
};

/** Named string types by module. */
const STRING_TYPES: Record<string, string[]> = {
  'core/v1': [
    'AppArmorProfileType', 'Capability', 'ConditionStatus', 'ContainerRestartPolicy', 'DNSPolicy', 'FinalizerName', 'HostPathType',
    'IPFamily', 'IPFamilyPolicy', 'MountPropagationMode', 'NamespacePhase', 'NodeAddressType', 'NodeConditionType', 'NodeInclusionPolicy',
    'NodePhase', 'NodeSelectorOperator', 'OSName', 'PersistentVolumeAccessMode', 'PersistentVolumeClaimConditionType',
    'PersistentVolumeClaimPhase', 'PersistentVolumeMode', 'PersistentVolumePhase', 'PersistentVolumeReclaimPolicy', 'PodConditionType',
    'PodFSGroupChangePolicy', 'PodPhase', 'PodQOSClass', 'PreemptionPolicy', 'ProcMountType', 'PullPolicy', 'ResourceName',
    'ResourceResizeRestartPolicy', 'RestartPolicy', 'SeccompProfileType', 'SecretType', 'ServiceAffinity', 'ServiceExternalTrafficPolicy',
    'ServiceInternalTrafficPolicy', 'ServiceType', 'StorageMedium', 'SupplementalGroupsPolicy', 'TaintEffect', 'TerminationMessagePolicy',
    'TolerationOperator', 'UnsatisfiableConstraintAction', 'URIScheme',
  ],
  'meta/v1': ['ConditionStatus', 'LabelSelectorOperator', 'ManagedFieldsOperationType'],
  'apps/v1': [
    'DaemonSetConditionType', 'DaemonSetUpdateStrategyType', 'DeploymentConditionType', 'DeploymentStrategyType',
    'PersistentVolumeClaimRetentionPolicyType', 'PodManagementPolicyType', 'ReplicaSetConditionType', 'StatefulSetConditionType',
    'StatefulSetUpdateStrategyType',
  ],
  'batch/v1': ['CompletionMode', 'ConcurrencyPolicy', 'JobConditionType', 'PodFailurePolicyAction', 'PodFailurePolicyOnExitCodesOperator', 'PodReplacementPolicy'],
  'coordination/v1': ['CoordinatedLeaseStrategy'],
  'admissionregistration/v1': ['FailurePolicyType', 'MatchPolicyType', 'OperationType', 'ReinvocationPolicyType', 'ScopeType', 'SideEffectClass'],
  'networking/v1': ['PathType', 'PolicyType'],
  'policy/v1': ['UnhealthyPodEvictionPolicyType'],
};

function buildTable(): Map<string, GoNamedType> {
  const table = new Map<string, GoNamedType>();
  for (const [module, names] of Object.entries(STRING_TYPES))
    for (const name of names) table.set(`${module}.${name}`, { doc: DOCS[`${module}.${name}`] ?? '', schema: text });
  table.set('core/v1.Protocol', { doc: '', schema: () => ({ type: 'string', default: 'TCP' }) });
  return table;
}

/** The named Go types, without ResourceList (whose values need the Quantity schema; see index.ts). */
export const GO_NAMED_TYPES: ReadonlyMap<string, GoNamedType> = buildTable();

/** Named map types: key → [doc, key of the value type]. */
export const GO_NAMED_MAPS: Readonly<Record<string, [doc: string, valueKey: string]>> = {
  'core/v1.ResourceList': [DOCS['core/v1.ResourceList']!, 'api/resource.Quantity'],
};
