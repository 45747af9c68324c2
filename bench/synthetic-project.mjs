// Writes a synthetic kubeforge project for the generator benchmark: N kinds in one API group, each with
// about 20 spec/status fields carrying validation markers, an embedded PodTemplateSpec, conditions, printer
// columns and RBAC markers — the shape of a large real operator, in kubebuilder's single-group layout.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const GROUP = 'bench.example.com';

function kindName(i) {
  return `Widget${String(i).padStart(3, '0')}`;
}

function typesFile(i) {
  const kind = kindName(i);
  return `import type { int32, int64 } from 'kubeforge/api';
import type { ObjectMeta, ListMeta, Condition, Time } from 'kubernetes-types/meta/v1.js';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';

/** ${kind}Mode says how the ${kind} rolls out. */
// +kubebuilder:validation:Enum=Fast;Safe;Paused
export type ${kind}Mode = 'Fast' | 'Safe' | 'Paused';

/** ${kind}Endpoint is one address the ${kind} listens on. */
export interface ${kind}Endpoint {
  /** Host name. */
  // +kubebuilder:validation:MaxLength=253
  host: string;
  /** Port number. */
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=65535
  port: int32;
  /** Protocol spoken on the port. */
  // +kubebuilder:default=TCP
  protocol?: string;
}

/** ${kind}Spec defines the desired state of ${kind}. */
export interface ${kind}Spec {
  /** Image to run. */
  // +kubebuilder:validation:MinLength=1
  image: string;
  /** Number of replicas. */
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:default=1
  replicas?: int32;
  /** Roll-out mode. */
  mode?: ${kind}Mode;
  /** Schedule in cron format. */
  // +kubebuilder:validation:Pattern=\`^(\\S+ ){4}\\S+$\`
  schedule?: string;
  /** Seconds to wait before giving up. */
  // +kubebuilder:validation:Minimum=1
  timeoutSeconds?: int64;
  /** Suspends the ${kind}. */
  suspend?: boolean;
  /** Extra arguments. */
  // +kubebuilder:validation:MaxItems=32
  args?: string[];
  /** Environment, by name. */
  env?: Record<string, string>;
  /** Endpoints served. */
  // +listType=map
  // +listMapKey=host
  endpoints?: ${kind}Endpoint[];
  /** Memory limit, e.g. 512Mi. */
  // +kubebuilder:validation:Pattern=\`^[0-9]+(Ki|Mi|Gi)?$\`
  memory?: string;
  /** Owner team. */
  // +kubebuilder:validation:MaxLength=63
  team?: string;
  /** Priority among peers. */
  // +kubebuilder:validation:Minimum=-10
  // +kubebuilder:validation:Maximum=10
  priority?: int32;
  /** Labels copied onto pods. */
  podLabels?: Record<string, string>;
  /** Free-form notes. */
  notes?: string;
  /** History limit. */
  // +kubebuilder:validation:Minimum=0
  historyLimit?: int32;
  /** The pod template. */
  template: PodTemplateSpec;
}

/** ${kind}Status defines the observed state of ${kind}. */
export interface ${kind}Status {
  /** Ready replicas. */
  readyReplicas?: int32;
  /** Last time the ${kind} was reconciled. */
  lastReconcileTime?: Time;
  /** Generation last observed. */
  observedGeneration?: int64;
  /** Current phase. */
  // +kubebuilder:validation:Enum=Pending;Running;Failed
  phase?: string;
  /** Conditions of the ${kind}. */
  // +listType=map
  // +listMapKey=type
  conditions?: Condition[];
}

/** ${kind} is the Schema for the ${kind.toLowerCase()}s API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=\`.spec.image\`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=\`.status.phase\`
export interface ${kind} {
  apiVersion: '${GROUP}/v1';
  kind: '${kind}';
  metadata?: ObjectMeta;
  spec?: ${kind}Spec;
  status?: ${kind}Status;
}

/** ${kind}List contains a list of ${kind}. */
// +kubebuilder:object:root=true
export interface ${kind}List {
  apiVersion: '${GROUP}/v1';
  kind: '${kind}List';
  metadata?: ListMeta;
  items: ${kind}[];
}
`;
}

/** Writes the project into `dir` (which must exist or be creatable); returns the kind names. */
export function writeSyntheticProject(dir, kinds = 100) {
  mkdirSync(join(dir, 'api/v1'), { recursive: true });
  mkdirSync(join(dir, 'internal/controller'), { recursive: true });
  writeFileSync(
    join(dir, 'api/v1/groupversion_info.ts'),
    `// Package v1 contains the synthetic benchmark API.\n// +kubebuilder:object:generate=true\n// +groupName=${GROUP}\n\nexport const groupVersion = { group: '${GROUP}', version: 'v1' } as const;\n`,
  );
  const names = [];
  for (let i = 0; i < kinds; i++) {
    const kind = kindName(i);
    names.push(kind);
    writeFileSync(join(dir, `api/v1/${kind.toLowerCase()}_types.ts`), typesFile(i));
    const plural = `${kind.toLowerCase()}s`;
    writeFileSync(
      join(dir, `internal/controller/${kind.toLowerCase()}_controller.ts`),
      `// ${kind}Reconciler reconciles a ${kind}.\n\n` +
        `// +kubebuilder:rbac:groups=${GROUP},resources=${plural},verbs=get;list;watch;create;update;patch;delete\n` +
        `// +kubebuilder:rbac:groups=${GROUP},resources=${plural}/status,verbs=get;update;patch\n` +
        `// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update\n\n` +
        `export function reconcile${kind}(): void {}\n`,
    );
  }
  return names;
}
