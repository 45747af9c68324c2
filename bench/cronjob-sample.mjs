// A realistic batch/v1-style CronJob custom resource with a full job template (two containers with env,
// resources, probes, volume mounts, security contexts; volumes, affinity, tolerations) and a status, as a
// controller's cache holds it: the value the deep-copy benchmark copies.

function container(name, image) {
  return {
    name,
    image,
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/sh', '-c'],
    args: ['date; echo Hello from the Kubernetes cluster; sleep 5'],
    env: [
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: false } } },
    ],
    envFrom: [{ configMapRef: { name: 'settings' } }],
    ports: [
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
    ],
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
    readinessProbe: { httpGet: { path: '/readyz', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
    volumeMounts: [
      { name: 'data', mountPath: '/data' },
      { name: 'config', mountPath: '/etc/config', readOnly: true },
    ],
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
}

/** A fresh CronJob value (apiVersion batch.example.com/v1, the shape of e2e/generator/fixtures/good). */
export function cronJobSample() {
  return {
    apiVersion: 'batch.example.com/v1',
    kind: 'CronJob',
    metadata: {
      name: 'nightly-report',
      namespace: 'reports',
      uid: '3f1c2a9e-5d0b-4b7e-9a61-0c1d2e3f4a5b',
      resourceVersion: '123456',
      generation: 4,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { 'app.kubernetes.io/name': 'reports', 'app.kubernetes.io/managed-by': 'kubeforge', team: 'data' },
      annotations: { 'kubeforge.io/note': 'nightly', 'example.com/owner': 'data-team' },
      finalizers: ['batch.example.com/cleanup'],
      managedFields: [
        { manager: 'kubectl', operation: 'Apply', apiVersion: 'batch.example.com/v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:schedule': {}, 'f:jobTemplate': {} } } },
      ],
    },
    spec: {
      schedule: '*/5 * * * *',
      startingDeadlineSeconds: 200,
      concurrencyPolicy: 'Forbid',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      jobLabels: { tier: 'batch', purpose: 'report' },
      jobTemplate: {
        metadata: { labels: { job: 'nightly-report' }, annotations: { 'example.com/trace': 'on' } },
        spec: {
          backoffLimit: 2,
          activeDeadlineSeconds: 3600,
          ttlSecondsAfterFinished: 600,
          template: {
            metadata: { labels: { job: 'nightly-report', app: 'reports' } },
            spec: {
              restartPolicy: 'OnFailure',
              serviceAccountName: 'reports',
              securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
              containers: [container('report', 'example.com/report:1.4.2'), container('uploader', 'example.com/uploader:2.0.1')],
              initContainers: [{ name: 'wait-db', image: 'busybox:1.36', command: ['sh', '-c', 'until nc -z db 5432; do sleep 1; done'] }],
              volumes: [
                { name: 'data', emptyDir: { sizeLimit: '1Gi' } },
                { name: 'config', configMap: { name: 'report-config', defaultMode: 420, items: [{ key: 'config.yaml', path: 'config.yaml' }] } },
              ],
              nodeSelector: { 'kubernetes.io/os': 'linux' },
              tolerations: [{ key: 'batch', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role', operator: 'In', values: ['batch', 'general'] }] }],
                  },
                },
              },
            },
          },
        },
      },
    },
    status: {
      active: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'nightly-report-29000000', namespace: 'reports', uid: 'a1b2c3', resourceVersion: '123400' }],
      lastScheduleTime: '2026-01-01T00:05:00Z',
    },
  };
}
