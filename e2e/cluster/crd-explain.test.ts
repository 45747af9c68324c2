/**
 * `kubectl explain` on custom resources shows what the real CRD OpenAPI builder publishes: apiVersion,
 * kind and metadata always carry TypeMeta's and ObjectMeta's standard descriptions (whatever the CRD's
 * own schema says of them, or when it says nothing), and so does every x-kubernetes-embedded-resource
 * object inside it (with apiVersion and kind required).
 */
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'cronjobs.batch.tutorial.kubebuilder.io' },
  spec: {
    group: 'batch.tutorial.kubebuilder.io',
    scope: 'Namespaced',
    names: { plural: 'cronjobs', singular: 'cronjob', kind: 'CronJob' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          description: 'CronJob is the Schema for the cronjobs API.',
          properties: {
            // the CRD's own words for apiVersion are replaced, as kube-apiserver replaces them
            apiVersion: { type: 'string', description: 'the version' },
            spec: {
              type: 'object',
              properties: {
                schedule: { type: 'string', description: 'The schedule in Cron format.' },
                template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      },
    }],
  },
};

const words = (text: string): string => text.replace(/\s+/g, ' ').trim();
// kubectl 1.32 reads `cronjobs.batch.…` as the built-in batch CronJob (its RESTMapper matches the group
// `batch` first), so the tutorial's kind is named with --api-version, as on a kind cluster
const explain = async (path: string): Promise<string> => words(await kubectl.ok(['explain', path, '--api-version=batch.tutorial.kubebuilder.io/v1']));

beforeAll(async () => {
  await kubectl.ok(['create', '-f', '-'], stringify(crd));
  await suite.cluster.settle();
});

test.each([
  ['apiVersion', 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'],
  ['kind', 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'],
  ['metadata', "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"],
])('kubectl explain cronjobs.%s shows the standard description', async (field, description) => {
  expect(await explain(`cronjobs.${field}`)).toContain(`DESCRIPTION: ${description}`);
});

test('the top level lists the three standard fields with their descriptions', async () => {
  const out = await explain('cronjobs');
  expect(out).toContain('DESCRIPTION: CronJob is the Schema for the cronjobs API.');
  expect(out).toContain('apiVersion <string> APIVersion defines the versioned schema');
  expect(out).toContain('kind <string> Kind is a string value representing the REST resource');
  expect(out).toContain("metadata <ObjectMeta> Standard object's metadata. More info:");
});

test('an embedded resource gets the embedded wording and requires apiVersion and kind', async () => {
  const out = await explain('cronjobs.spec.template');
  expect(out).toContain('apiVersion <string> -required- apiVersion defines the versioned schema of this representation of an object.');
  expect(out).toContain('kind <string> -required- kind is a string value representing the type of this object.');
  expect(out).toContain("metadata <ObjectMeta> Standard object's metadata.");
});
