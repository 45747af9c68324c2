// Writes a large kubeforge project for the generator benchmark — an API of about 16,000 lines, the size of the
// largest real operator API ported (issue 16): several groups in kubebuilder's multi-group layout
// (api/<group>/v1), each kind with nested structs three levels deep, lists of structs keyed by name,
// enums, validation and CEL markers, defaults, printer columns, the scale and status subresources, and fields of
// Kubernetes types (ResourceRequirements, Affinity, Toleration, EnvVar, Volume, Probe, SecretKeySelector,
// LocalObjectReference, Condition, Quantity, IntOrString, Duration, Time); plus a controller with RBAC markers and
// a webhook file with webhook markers per kind.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const GROUPS = ['apps', 'data', 'network', 'storage'];
const DOMAIN = 'large.example.com';

function typesFile(kind, group) {
  return `import type { int32, int64, Quantity, IntOrString, Duration } from 'kubeforge/api';
import type { ObjectMeta, ListMeta, Condition, Time } from 'kubernetes-types/meta/v1.js';
import type {
  Affinity,
  EnvVar,
  LocalObjectReference,
  Probe,
  ResourceRequirements,
  SecretKeySelector,
  Toleration,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1.js';

/** ${kind}Phase is where a ${kind} is in its life. */
// +kubebuilder:validation:Enum=Pending;Provisioning;Ready;Degraded;Failed;Deleting
export type ${kind}Phase = 'Pending' | 'Provisioning' | 'Ready' | 'Degraded' | 'Failed' | 'Deleting';

/** ${kind}RolloutStrategy says how pods of a ${kind} are replaced. */
// +kubebuilder:validation:Enum=RollingUpdate;Recreate;OnDelete
export type ${kind}RolloutStrategy = 'RollingUpdate' | 'Recreate' | 'OnDelete';

/** ${kind}Protocol is the protocol of a port. */
// +kubebuilder:validation:Enum=TCP;UDP;SCTP
export type ${kind}Protocol = 'TCP' | 'UDP' | 'SCTP';

/** ${kind}TLSVersion is a minimum TLS version. */
// +kubebuilder:validation:Enum=VersionTLS12;VersionTLS13
export type ${kind}TLSVersion = 'VersionTLS12' | 'VersionTLS13';

/** ${kind}Port is one port the ${kind} serves. */
export interface ${kind}Port {
  /** Name of the port, unique within the ${kind}. */
  // +kubebuilder:validation:MinLength=1
  // +kubebuilder:validation:MaxLength=15
  // +kubebuilder:validation:Pattern=\`^[a-z]([-a-z0-9]*[a-z0-9])?$\`
  name: string;
  /** Port number. */
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=65535
  port: int32;
  /** Port on the pods, by number or name; the port number when unset. */
  // +optional
  targetPort?: IntOrString;
  /** Protocol of the port. */
  // +kubebuilder:default=TCP
  // +optional
  protocol?: ${kind}Protocol;
  /** Application protocol, for example http or grpc. */
  // +optional
  appProtocol?: string;
}

/** ${kind}TLS configures TLS for the ${kind}'s endpoints. */
// +kubebuilder:validation:XValidation:rule="!has(self.secretName) || self.secretName != ''",message="secretName must not be empty when set"
export interface ${kind}TLS {
  /** Secret holding tls.crt and tls.key. */
  // +optional
  secretName?: string;
  /** Minimum TLS version accepted. */
  // +kubebuilder:default=VersionTLS12
  // +optional
  minVersion?: ${kind}TLSVersion;
  /** Cipher suites accepted, in order of preference. */
  // +listType=set
  // +kubebuilder:validation:MaxItems=16
  // +optional
  cipherSuites?: string[];
  /** Require client certificates. */
  // +optional
  clientAuth?: boolean;
}

/** ${kind}Network configures how the ${kind} is reached. */
export interface ${kind}Network {
  /** Ports served. */
  // +listType=map
  // +listMapKey=name
  // +kubebuilder:validation:MinItems=1
  // +kubebuilder:validation:MaxItems=32
  ports: ${kind}Port[];
  /** TLS settings; plain text when unset. */
  // +optional
  tls?: ${kind}TLS;
  /** Extra host names the ${kind} answers to. */
  // +listType=set
  // +optional
  hostnames?: string[];
  /** Annotations for the Service. */
  // +optional
  serviceAnnotations?: Record<string, string>;
  /** Expose the ${kind} outside the cluster. */
  // +kubebuilder:default=false
  // +optional
  external?: boolean;
}

/** ${kind}BackupTarget is where backups are written. */
export interface ${kind}BackupTarget {
  /** Bucket name. */
  // +kubebuilder:validation:MinLength=3
  // +kubebuilder:validation:MaxLength=63
  bucket: string;
  /** Object-store endpoint URL. */
  // +kubebuilder:validation:Pattern=\`^https?://\`
  endpoint: string;
  /** Prefix of the backup objects. */
  // +optional
  prefix?: string;
  /** Credentials of the object store. */
  credentials: SecretKeySelector;
  /** Region of the bucket. */
  // +optional
  region?: string;
}

/** ${kind}Backup schedules backups of the ${kind}'s data. */
// +kubebuilder:validation:XValidation:rule="self.keep >= 1",message="keep at least one backup"
export interface ${kind}Backup {
  /** Cron schedule of the backups. */
  // +kubebuilder:validation:MinLength=9
  schedule: string;
  /** How many backups to keep. */
  // +kubebuilder:default=7
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=365
  keep: int32;
  /** How long a backup may run. */
  // +optional
  timeout?: Duration;
  /** Where backups go. */
  target: ${kind}BackupTarget;
  /** Suspend scheduling new backups. */
  // +optional
  suspend?: boolean;
}

/** ${kind}Storage is the persistent storage of the ${kind}. */
export interface ${kind}Storage {
  /** Size of each volume. */
  size: Quantity;
  /** StorageClass of the volumes; the cluster default when unset. */
  // +optional
  storageClassName?: string;
  /** Access modes of the volumes. */
  // +listType=atomic
  // +optional
  accessModes?: ('ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod')[];
  /** Backups of the volumes. */
  // +optional
  backup?: ${kind}Backup;
  /** Keep the volumes when the ${kind} is deleted. */
  // +kubebuilder:default=true
  // +optional
  retain?: boolean;
}

/** ${kind}Rollout says how changes reach the pods. */
export interface ${kind}Rollout {
  /** Replacement strategy. */
  // +kubebuilder:default=RollingUpdate
  // +optional
  strategy?: ${kind}RolloutStrategy;
  /** Pods that may be unavailable during a rolling update. */
  // +kubebuilder:validation:XIntOrString
  // +optional
  maxUnavailable?: IntOrString;
  /** Pods that may be created above the desired count during a rolling update. */
  // +optional
  maxSurge?: IntOrString;
  /** Seconds a new pod must be ready before it counts as available. */
  // +kubebuilder:validation:Minimum=0
  // +optional
  minReadySeconds?: int32;
  /** Pause the rollout. */
  // +optional
  paused?: boolean;
}

/** ${kind}Workload is the pods of the ${kind}. */
export interface ${kind}Workload {
  /** Container image. */
  // +kubebuilder:validation:MinLength=1
  image: string;
  /** Image pull policy. */
  // +kubebuilder:validation:Enum=Always;IfNotPresent;Never
  // +optional
  imagePullPolicy?: string;
  /** Secrets to pull the image with. */
  // +listType=atomic
  // +optional
  imagePullSecrets?: LocalObjectReference[];
  /** Compute resources of the main container. */
  // +optional
  resources?: ResourceRequirements;
  /** Scheduling constraints. */
  // +optional
  affinity?: Affinity;
  /** Tolerations of the pods. */
  // +listType=atomic
  // +optional
  tolerations?: Toleration[];
  /** Node labels the pods must match. */
  // +optional
  nodeSelector?: Record<string, string>;
  /** Environment of the main container. */
  // +listType=map
  // +listMapKey=name
  // +optional
  env?: EnvVar[];
  /** Extra volumes. */
  // +listType=map
  // +listMapKey=name
  // +optional
  volumes?: Volume[];
  /** Mounts of the extra volumes. */
  // +listType=atomic
  // +optional
  volumeMounts?: VolumeMount[];
  /** Liveness probe of the main container. */
  // +optional
  livenessProbe?: Probe;
  /** Readiness probe of the main container. */
  // +optional
  readinessProbe?: Probe;
  /** Labels added to every pod. */
  // +optional
  podLabels?: Record<string, string>;
  /** Annotations added to every pod. */
  // +optional
  podAnnotations?: Record<string, string>;
  /** Service account the pods run as. */
  // +optional
  serviceAccountName?: string;
  /** Priority class of the pods. */
  // +optional
  priorityClassName?: string;
  /** Seconds the pods get to stop. */
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:default=30
  // +optional
  terminationGracePeriodSeconds?: int64;
}

/** ${kind}Spec defines the desired state of ${kind}. */
// +kubebuilder:validation:XValidation:rule="!has(self.minReplicas) || !has(self.replicas) || self.minReplicas <= self.replicas",message="minReplicas must not exceed replicas"
export interface ${kind}Spec {
  /** Desired number of pods. */
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:default=1
  // +optional
  replicas?: int32;
  /** Fewest pods the autoscaler may leave. */
  // +kubebuilder:validation:Minimum=0
  // +optional
  minReplicas?: int32;
  /** Version of the software to run. */
  // +kubebuilder:validation:Pattern=\`^v?[0-9]+\\.[0-9]+(\\.[0-9]+)?$\`
  version: string;
  /** The pods. */
  workload: ${kind}Workload;
  /** How the ${kind} is reached. */
  // +optional
  network?: ${kind}Network;
  /** Persistent storage; none when unset. */
  // +optional
  storage?: ${kind}Storage;
  /** How changes reach the pods. */
  // +optional
  rollout?: ${kind}Rollout;
  /** Free-form settings passed to the software. */
  // +optional
  settings?: Record<string, string>;
  /** Suspend reconciliation of the ${kind}. */
  // +optional
  suspend?: boolean;
}

/** ${kind}Endpoint is an address the ${kind} is reachable at. */
export interface ${kind}Endpoint {
  /** Name of the port. */
  name: string;
  /** URL of the endpoint. */
  url: string;
}

/** ${kind}Status defines the observed state of ${kind}. */
export interface ${kind}Status {
  /** Generation last acted on. */
  // +optional
  observedGeneration?: int64;
  /** Pods that exist. */
  // +optional
  replicas?: int32;
  /** Pods that are ready. */
  // +optional
  readyReplicas?: int32;
  /** Label selector of the pods, for the scale subresource. */
  // +optional
  selector?: string;
  /** Where the ${kind} is in its life. */
  // +optional
  phase?: ${kind}Phase;
  /** Addresses the ${kind} is reachable at. */
  // +listType=map
  // +listMapKey=name
  // +optional
  endpoints?: ${kind}Endpoint[];
  /** When the last backup finished. */
  // +optional
  lastBackupTime?: Time;
  /** Version running now. */
  // +optional
  currentVersion?: string;
  /** Conditions of the ${kind}. */
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

/** ${kind} is the Schema for the ${kind.toLowerCase()}s API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:resource:shortName=${kind.toLowerCase().slice(0, 3)}${kind.length}
// +kubebuilder:printcolumn:name="Version",type=string,JSONPath=\`.spec.version\`
// +kubebuilder:printcolumn:name="Ready",type=integer,JSONPath=\`.status.readyReplicas\`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=\`.status.phase\`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=\`.metadata.creationTimestamp\`
export interface ${kind} {
  apiVersion: '${group}.${DOMAIN}/v1';
  kind: '${kind}';
  metadata?: ObjectMeta;
  spec?: ${kind}Spec;
  status?: ${kind}Status;
}

/** ${kind}List contains a list of ${kind}. */
// +kubebuilder:object:root=true
export interface ${kind}List {
  apiVersion: '${group}.${DOMAIN}/v1';
  kind: '${kind}List';
  metadata?: ListMeta;
  items: ${kind}[];
}
`;
}

const NOUNS = ['Cache', 'Queue', 'Store', 'Gateway', 'Index', 'Stream', 'Ledger', 'Mesh', 'Vault', 'Relay', 'Broker', 'Shard', 'Proxy', 'Router'];

/**
 * Writes the project into `dir`; kinds are added until the API files reach `targetLines` lines.
 * Returns the number of kinds and of API lines written.
 */
export function writeLargeApiProject(dir, targetLines = 16000) {
  let lines = 0;
  let kinds = 0;
  for (const group of GROUPS) {
    const folder = join(dir, 'api', group, 'v1');
    mkdirSync(folder, { recursive: true });
    const info = `// Package v1 contains the ${group} API.\n// +kubebuilder:object:generate=true\n// +groupName=${group}.${DOMAIN}\n\nexport const groupVersion = { group: '${group}.${DOMAIN}', version: 'v1' } as const;\n`;
    writeFileSync(join(folder, 'groupversion_info.ts'), info);
    lines += info.split('\n').length - 1;
  }
  mkdirSync(join(dir, 'internal/controller'), { recursive: true });
  mkdirSync(join(dir, 'internal/webhook'), { recursive: true });
  while (lines < targetLines) {
    const group = GROUPS[kinds % GROUPS.length];
    const kind = `${NOUNS[kinds % NOUNS.length]}${String(kinds).padStart(2, '0')}`;
    const text = typesFile(kind, group);
    writeFileSync(join(dir, 'api', group, 'v1', `${kind.toLowerCase()}_types.ts`), text);
    lines += text.split('\n').length - 1;
    const plural = `${kind.toLowerCase()}s`;
    const fullGroup = `${group}.${DOMAIN}`;
    writeFileSync(
      join(dir, `internal/controller/${kind.toLowerCase()}_controller.ts`),
      `// ${kind}Reconciler reconciles a ${kind}.\n\n` +
        `// +kubebuilder:rbac:groups=${fullGroup},resources=${plural},verbs=get;list;watch;create;update;patch;delete\n` +
        `// +kubebuilder:rbac:groups=${fullGroup},resources=${plural}/status,verbs=get;update;patch\n` +
        `// +kubebuilder:rbac:groups=${fullGroup},resources=${plural}/finalizers,verbs=update\n` +
        `// +kubebuilder:rbac:groups=apps,resources=statefulsets;deployments,verbs=get;list;watch;create;update;patch;delete\n` +
        `// +kubebuilder:rbac:groups=core,resources=services;configmaps;secrets,verbs=get;list;watch;create;update;patch\n\n` +
        `export function reconcile${kind}(): void {}\n`,
    );
    writeFileSync(
      join(dir, `internal/webhook/${kind.toLowerCase()}_webhook.ts`),
      `// +kubebuilder:webhook:path=/mutate-${group}-${DOMAIN.replaceAll('.', '-')}-v1-${kind.toLowerCase()},mutating=true,failurePolicy=fail,sideEffects=None,groups=${fullGroup},resources=${plural},verbs=create;update,versions=v1,name=m${kind.toLowerCase()}-v1.kb.io,admissionReviewVersions=v1\n` +
        `// +kubebuilder:webhook:path=/validate-${group}-${DOMAIN.replaceAll('.', '-')}-v1-${kind.toLowerCase()},mutating=false,failurePolicy=fail,sideEffects=None,groups=${fullGroup},resources=${plural},verbs=create;update,versions=v1,name=v${kind.toLowerCase()}-v1.kb.io,admissionReviewVersions=v1\n\n` +
        `export function setup${kind}Webhook(): void {}\n`,
    );
    kinds++;
  }
  return { kinds, lines };
}
