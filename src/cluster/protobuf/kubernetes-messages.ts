/**
 * Field tables (from k8s.io/api generated.proto) of the kinds kubectl 1.32 sends as protobuf, and the
 * `k8s\0` envelope (runtime.Unknown) around them.
 */
import { type MessageSpec, ProtobufDecodeError, decodeMessage, readFields } from './wire-format.js';

const s = (name: string, repeated = false) => ({ name, type: 'string' as const, ...(repeated ? { repeated } : {}) });

const ownerReference: MessageSpec = { 1: s('kind'), 3: s('name'), 4: s('uid'), 5: s('apiVersion'), 6: { name: 'controller', type: 'bool' }, 7: { name: 'blockOwnerDeletion', type: 'bool' } };

const objectMeta: MessageSpec = {
  1: s('name'), 2: s('generateName'), 3: s('namespace'), 5: s('uid'), 6: s('resourceVersion'),
  11: { name: 'labels', type: 'stringMap' }, 12: { name: 'annotations', type: 'stringMap' },
  13: { name: 'ownerReferences', type: 'message', repeated: true, message: ownerReference }, 14: s('finalizers', true),
};
const meta = { name: 'metadata', type: 'message' as const, message: objectMeta };
const localObjectReference: MessageSpec = { 1: s('name') };
const objectReference: MessageSpec = { 1: s('kind'), 2: s('namespace'), 3: s('name'), 4: s('uid'), 5: s('apiVersion'), 6: s('resourceVersion'), 7: s('fieldPath') };
const policyRule: MessageSpec = { 1: s('verbs', true), 2: s('apiGroups', true), 3: s('resources', true), 4: s('resourceNames', true), 5: s('nonResourceURLs', true) };

const int = (name: string) => ({ name, type: 'int' as const });
const container: MessageSpec = {
  1: s('name'), 2: s('image'), 3: s('command', true), 4: s('args', true), 5: s('workingDir'),
  7: { name: 'env', type: 'message', repeated: true, message: { 1: s('name'), 2: s('value') } },
  13: s('terminationMessagePath'), 14: s('imagePullPolicy'), 20: s('terminationMessagePolicy'),
};
const podSpec: MessageSpec = {
  2: { name: 'containers', type: 'message', repeated: true, message: container },
  3: s('restartPolicy'), 4: int('terminationGracePeriodSeconds'), 5: int('activeDeadlineSeconds'), 6: s('dnsPolicy'),
  7: { name: 'nodeSelector', type: 'stringMap' }, 8: s('serviceAccountName'), 10: s('nodeName'),
};
const podTemplateSpec: MessageSpec = { 1: meta, 2: { name: 'spec', type: 'message', message: podSpec } };
const jobSpec: MessageSpec = {
  1: int('parallelism'), 2: int('completions'), 3: int('activeDeadlineSeconds'), 6: { name: 'template', type: 'message', message: podTemplateSpec },
  7: int('backoffLimit'), 8: int('ttlSecondsAfterFinished'), 9: s('completionMode'), 10: { name: 'suspend', type: 'bool' },
};

/** Message tables by `apiVersion/kind`. */
export const protobufKinds: Record<string, MessageSpec> = {
  'v1/ConfigMap': { 1: meta, 2: { name: 'data', type: 'stringMap' }, 3: { name: 'binaryData', type: 'bytesMap' }, 4: { name: 'immutable', type: 'bool' } },
  'v1/Secret': { 1: meta, 2: { name: 'data', type: 'bytesMap' }, 3: s('type'), 4: { name: 'stringData', type: 'stringMap' }, 5: { name: 'immutable', type: 'bool' } },
  'v1/Namespace': { 1: meta, 2: { name: 'spec', type: 'message', message: { 1: s('finalizers', true) } } },
  'v1/ServiceAccount': {
    1: meta,
    2: { name: 'secrets', type: 'message', repeated: true, message: objectReference },
    3: { name: 'imagePullSecrets', type: 'message', repeated: true, message: localObjectReference },
    4: { name: 'automountServiceAccountToken', type: 'bool' },
  },
  'authorization.k8s.io/v1/SelfSubjectAccessReview': {
    1: meta,
    2: {
      name: 'spec',
      type: 'message',
      message: {
        1: { name: 'resourceAttributes', type: 'message', message: { 1: s('namespace'), 2: s('verb'), 3: s('group'), 4: s('version'), 5: s('resource'), 6: s('subresource'), 7: s('name') } },
        2: { name: 'nonResourceAttributes', type: 'message', message: { 1: s('path'), 2: s('verb') } },
      },
    },
  },
  'authorization.k8s.io/v1/SelfSubjectRulesReview': { 1: meta, 2: { name: 'spec', type: 'message', message: { 1: s('namespace') } } },
  'authentication.k8s.io/v1/SelfSubjectReview': { 1: meta },
  'authentication.k8s.io/v1/TokenRequest': {
    1: meta,
    2: { name: 'spec', type: 'message', message: { 1: s('audiences', true), 4: { name: 'expirationSeconds', type: 'int' } } },
  },
  'batch/v1/Job': { 1: meta, 2: { name: 'spec', type: 'message', message: jobSpec } },
  'batch/v1/CronJob': {
    1: meta,
    2: {
      name: 'spec',
      type: 'message',
      message: {
        1: s('schedule'), 2: int('startingDeadlineSeconds'), 3: s('concurrencyPolicy'), 4: { name: 'suspend', type: 'bool' },
        5: { name: 'jobTemplate', type: 'message', message: { 1: meta, 2: { name: 'spec', type: 'message', message: jobSpec } } },
        6: int('successfulJobsHistoryLimit'), 7: int('failedJobsHistoryLimit'), 8: s('timeZone'),
      },
    },
  },
  'apps/v1/Deployment': {
    1: meta,
    2: {
      name: 'spec',
      type: 'message',
      message: {
        1: int('replicas'),
        2: { name: 'selector', type: 'message', message: { 1: { name: 'matchLabels', type: 'stringMap' } } },
        3: { name: 'template', type: 'message', message: podTemplateSpec },
        5: int('minReadySeconds'), 6: int('revisionHistoryLimit'), 9: int('progressDeadlineSeconds'),
      },
    },
  },
  'rbac.authorization.k8s.io/v1/Role': { 1: meta, 2: { name: 'rules', type: 'message', repeated: true, message: policyRule } },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    1: meta,
    2: { name: 'subjects', type: 'message', repeated: true, message: { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') } },
    3: { name: 'roleRef', type: 'message', message: { 1: s('apiGroup'), 2: s('kind'), 3: s('name') } },
  },
  'rbac.authorization.k8s.io/v1/ClusterRole': { 1: meta, 2: { name: 'rules', type: 'message', repeated: true, message: policyRule } },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    1: meta,
    2: { name: 'subjects', type: 'message', repeated: true, message: { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') } },
    3: { name: 'roleRef', type: 'message', message: { 1: s('apiGroup'), 2: s('kind'), 3: s('name') } },
  },
};

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Decodes a `k8s\0` envelope into a JSON object, or says which kind is not supported. */
export function decodeKubernetesProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(magic)) throw new ProtobufDecodeError('missing the k8s protobuf envelope prefix');
  let typeMeta: Record<string, unknown> = {};
  let raw: Buffer = Buffer.alloc(0);
  for (const f of readFields(body.subarray(4))) {
    if (f.field === 1 && f.bytes) typeMeta = decodeMessage(f.bytes, { 1: s('apiVersion'), 2: s('kind') });
    if (f.field === 2 && f.bytes) raw = f.bytes;
  }
  const key = `${typeMeta.apiVersion}/${typeMeta.kind}`;
  const spec = protobufKinds[key];
  if (!spec) throw new ProtobufDecodeError(`protobuf request bodies of kind ${String(typeMeta.kind)} (${String(typeMeta.apiVersion)}) are not decoded by the kubeforge local cluster`);
  return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...decodeMessage(raw, spec) };
}
