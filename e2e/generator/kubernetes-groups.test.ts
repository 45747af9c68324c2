// A project that imports Kubernetes types from several groups — through kubernetes-types (1.30 on npm) and
// through kubeforge/kubernetes/<group>/<version> (every 1.32 type, and the named Go types kubernetes-types
// lacks) — builds its CRD with each type's schema rendered from Kubernetes' 1.32 definitions, generates its
// deep copies, and tsc accepts the imports and the generated code.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { knownType } from '../../src/generate/crd/known-types/index.js';
import { makeProject, removeProjects, repoRoot, runCli } from './cli-harness.js';

afterAll(removeProjects);

type Schema = Record<string, any>;  

const TYPES = `import type { ObjectMeta } from 'kubeforge/api';
import type { Taint, PersistentVolumeClaimSpec } from 'kubernetes-types/core/v1.js';
import type { NetworkPolicySpec } from 'kubernetes-types/networking/v1.js';
import type {
  ConditionStatus,
  PersistentVolumeClaimStatus,
  PullPolicy,
  ResourceList,
  ResourceName,
  TaintEffect,
} from 'kubeforge/kubernetes/core/v1';
import type { StatefulSetPersistentVolumeClaimRetentionPolicy } from 'kubeforge/kubernetes/apps/v1';
import type { Condition, ConditionStatus as MetaConditionStatus } from 'kubeforge/kubernetes/meta/v1';
import type { PolicyRule } from 'kubeforge/kubernetes/rbac/v1';
import type { APIServiceSpec } from 'kubeforge/kubernetes/apiregistration/v1';

/** FleetSpec uses Kubernetes types of several groups. */
export interface FleetSpec {
  /** Taints put on every node of the fleet. */
  taints?: Taint[];
  /** The effect of the fleet's own taint. */
  effect?: TaintEffect;
  pullPolicy?: PullPolicy;
  /** Resources reserved per node. */
  reserved?: ResourceList;
  /** Resources the fleet watches. */
  watched?: ResourceName[];
  /** The claim every node gets. */
  claim?: PersistentVolumeClaimSpec;
  /** What happens to claims when the fleet shrinks. */
  retention?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  /** Traffic allowed between the nodes. */
  network?: NetworkPolicySpec;
  /** Permissions of the fleet's agents. */
  rules?: PolicyRule[];
  /** An aggregated API the fleet serves. */
  apiService?: APIServiceSpec;
}

/** FleetStatus is the observed state. */
export interface FleetStatus {
  /** The claim's status. */
  claim?: PersistentVolumeClaimStatus;
  /** Conditions of the fleet. */
  conditions?: Condition[];
  /** Whether the fleet is ready. */
  ready?: MetaConditionStatus;
  /** Whether the nodes are ready. */
  nodesReady?: ConditionStatus;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
/** Fleet is a test kind. */
export interface Fleet {
  apiVersion: 'batch.example.com/v1';
  kind: 'Fleet';
  metadata?: ObjectMeta;
  spec?: FleetSpec;
  status?: FleetStatus;
}
`;

describe('Kubernetes types of several groups', () => {
  let project: string;
  let spec: Schema;
  let status: Schema;
  let manifests: { code: number; stdout: string; stderr: string };
  let generate: { code: number; stdout: string; stderr: string };
  beforeAll(async () => {
    project = makeProject('good', { 'api/v1/fleet_types.ts': TYPES });
    manifests = await runCli(['manifests', '--root', project]);
    generate = await runCli(['generate', '--root', project]);
    const [crd] = parseAllDocuments(readFileSync(join(project, 'config/crd/bases/batch.example.com_fleets.yaml'), 'utf8')).map((d) => d.toJS());
    const root = crd.spec.versions[0].schema.openAPIV3Schema;
    spec = root.properties.spec;
    status = root.properties.status;
  });

  it('manifests builds the CRD (structural, or it would not be written) without messages', () => {
    expect(manifests).toMatchObject({ code: 0, stderr: '' });
    expect(Object.keys(spec.properties).sort()).toEqual(
      ['apiService', 'claim', 'effect', 'network', 'pullPolicy', 'reserved', 'retention', 'rules', 'taints', 'watched'],
    );
  });

  it('gives each imported type the schema rendered from its 1.32 definition', () => {
    const taint = knownType('core/v1.Taint')!;
    expect(spec.properties.taints.items).toEqual({ description: taint.description, ...taint.schema });
    expect(spec.properties.taints.items.required).toEqual(['effect', 'key']);
    expect(spec.properties.claim.properties.accessModes).toMatchObject({ type: 'array', 'x-kubernetes-list-type': 'atomic' });
    expect(spec.properties.claim.properties.resources.properties.requests.additionalProperties).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(Object.keys(spec.properties.retention.properties).sort()).toEqual(['whenDeleted', 'whenScaled']);
    expect(spec.properties.network.properties.podSelector).toMatchObject({ type: 'object', 'x-kubernetes-map-type': 'atomic' });
    expect(spec.properties.network.properties.ingress.items.properties.ports.items.properties.protocol).toMatchObject({ default: 'TCP' });
    expect(spec.properties.rules.items.required).toEqual(['verbs']);
    expect(spec.properties.apiService.required).toEqual(['groupPriorityMinimum', 'versionPriority']);
    expect(status.properties.claim.properties.capacity.additionalProperties).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(status.properties.conditions.items.properties.reason).toMatchObject({ maxLength: 1024, minLength: 1 });
  });

  it('treats named Go types as controller-gen does: their schema, and the field doc or else the type doc', () => {
    expect(spec.properties.effect).toEqual({ description: "The effect of the fleet's own taint.", type: 'string' });
    expect(spec.properties.pullPolicy).toEqual({ description: 'PullPolicy describes a policy for if/when to pull a container image', type: 'string' });
    expect(spec.properties.watched).toEqual({
      description: 'Resources the fleet watches.',
      type: 'array',
      items: { description: 'ResourceName is the name identifying various resources in a ResourceList.', type: 'string' },
    });
    expect(spec.properties.reserved).toMatchObject({ description: 'Resources reserved per node.', type: 'object', additionalProperties: { 'x-kubernetes-int-or-string': true } });
    expect(status.properties.ready).toEqual({ description: 'Whether the fleet is ready.', type: 'string' });
    expect(status.properties.nodesReady).toEqual({ description: 'Whether the nodes are ready.', type: 'string' });
  });

  it('tsc (module NodeNext) accepts both import spellings and the generated deep copies', () => {
    expect(generate).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(project, 'api/v1/zz_generated.deepcopy.ts'), 'utf8')).toContain('export function deepCopyFleetSpec(');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(repoRoot, join(project, 'node_modules', 'kubeforge'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules', 'kubernetes-types'), join(project, 'node_modules', 'kubernetes-types'), 'dir');
    writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
    // The made project's target and lib (templates/init/tsconfig.json.hbs), not NodeNext's default esnext with the
    // DOM: checking lib.dom.d.ts (skipLibCheck false) was half of this tsc's CPU (2.5 against 1.2 CPU-s).
    const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023'], strict: true, noEmit: true, skipLibCheck: false };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['api/**/*.ts'] }));
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' })).toBe('');
  });
});
