import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { formatDiagnostic } from '../../markers/types.js';
import { parseLabelSelector } from '../../markers/label-selector.js';
import { readControllerDeclarations } from '../../reader/controller-declarations.js';
import { scanFileMarkers } from '../../reader/file-markers.js';
import { buildWebhooks, emitWebhookManifestsYaml } from './index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const conformance = `${sharedPath('conformance')}/`;

const BASE = 'groups=batch,resources=jobs,verbs=create;Update,versions=v1,admissionReviewVersions=v1,failurePolicy=fail';

function build(...markerLines: string[]) {
  const { declarations, diagnostics } = readControllerDeclarations(['internal/webhook/v1/w.ts'], () => markerLines.map((l) => `// ${l}\n`).join(''));
  expect(diagnostics.map(formatDiagnostic)).toEqual([]);
  const result = buildWebhooks(declarations.webhooks, declarations.webhookConfigurations);
  return { ...result, errors: result.diagnostics.map((d) => d.message) };
}

function manifestsFor(fixtureName: string): string {
  const path = fixture(fixtureName);
  const { declarations, diagnostics } = readControllerDeclarations([path], () => readFileSync(path, 'utf8'));
  expect(diagnostics).toEqual([]);
  const result = buildWebhooks(declarations.webhooks, declarations.webhookConfigurations);
  expect(result.diagnostics).toEqual([]);
  return emitWebhookManifestsYaml(result.configurations);
}

describe('webhook generator', () => {
  it('normalises verbs, policies and core, and uses the default service', () => {
    const { configurations, errors } = build(`+kubebuilder:webhook:path=/v,mutating=false,sideEffects=none,name=v.b.io,matchPolicy=exact,${BASE.replace('groups=batch', 'groups=core')}`);
    expect(errors).toEqual([]);
    expect(configurations).toEqual([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'validating-webhook-configuration' },
        webhooks: [
          {
            admissionReviewVersions: ['v1'],
            clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: '/v' } },
            failurePolicy: 'Fail',
            matchPolicy: 'Exact',
            name: 'v.b.io',
            rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['jobs'] }],
            sideEffects: 'None',
          },
        ],
      },
    ]);
  });

  it('writes mutating first, sorts webhooks by name, and applies custom names, services and url', () => {
    const { configurations } = build(
      `+kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,name=z.b.io,${BASE}`,
      `+kubebuilder:webhook:url="https://hook.example.com:9443/m",mutating=true,sideEffects=None,name=m.b.io,reinvocationPolicy=IfNeeded,${BASE}`,
      `+kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,name=a.b.io,serviceName=svc,serviceNamespace=ns,servicePort=1234,${BASE}`,
      '+kubebuilder:webhookconfiguration:mutating=true,name=foo',
    );
    expect(configurations.map((c) => [c.kind, c.metadata.name, c.webhooks.map((w) => w.name)])).toEqual([
      ['MutatingWebhookConfiguration', 'foo', ['m.b.io']],
      ['ValidatingWebhookConfiguration', 'validating-webhook-configuration', ['a.b.io', 'z.b.io']],
    ]);
    expect(configurations[0].webhooks[0]).toMatchObject({ clientConfig: { url: 'https://hook.example.com:9443/m' }, reinvocationPolicy: 'IfNeeded' });
    expect(configurations[1].webhooks[0].clientConfig).toEqual({ service: { name: 'svc', namespace: 'ns', path: '/v', port: 1234 } });
  });

  it('reads namespace and object selectors', () => {
    const { configurations } = build(`+kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,name=v.b.io,namespaceSelector=matchLabels~webhook-enabled=true,${BASE}`);
    expect(configurations[0].webhooks[0].namespaceSelector).toEqual({ matchLabels: { 'webhook-enabled': 'true' } });
    expect(emitWebhookManifestsYaml(configurations)).toContain('  namespaceSelector:\n    matchLabels:\n      webhook-enabled: "true"\n');
    expect(parseLabelSelector('matchLabels~a=b.c=d&matchExpressions~key=tier.operator=In.values=x|y')).toEqual({
      matchLabels: { a: 'b', c: 'd' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }],
    });
    expect(() => parseLabelSelector('key=value')).toThrow('must start with matchLabels~ or matchExpressions~');
  });

  it.each([
    ['`url` or `path` markers are required and mutually exclusive', `+kubebuilder:webhook:mutating=false,sideEffects=None,name=v.b.io,${BASE}`],
    ['`url` or `path` markers are required and mutually exclusive', `+kubebuilder:webhook:path=/v,url=https://x/v,mutating=false,sideEffects=None,name=v.b.io,${BASE}`],
    ['SideEffects is required for creating v1 ValidatingWebhookConfiguration', `+kubebuilder:webhook:path=/v,mutating=false,name=v.b.io,${BASE}`],
    ['SideEffects should not be set to `Some` or `Unknown` for v1 MutatingWebhookConfiguration', `+kubebuilder:webhook:path=/v,mutating=true,sideEffects=Some,name=v.b.io,${BASE}`],
    ['TimeoutSeconds must be between 1 and 30 seconds', `+kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,timeoutSeconds=31,name=v.b.io,${BASE}`],
    ['unsupported webhook version: v1beta1', `+kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,webhookVersions=v1beta1,name=v.b.io,${BASE}`],
    ['unknown value "Fuzzy" for matchPolicy', `+kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,matchPolicy=Fuzzy,name=v.b.io,${BASE}`],
  ])('rejects with %s', (message, marker) => {
    const { configurations, errors } = build(marker);
    expect(configurations).toEqual([]);
    expect(errors).toEqual([`marker ${JSON.stringify(marker)}: ${message}`]);
  });

  it('reports a missing admissionReviewVersions at the marker', () => {
    const { diagnostics } = scanFileMarkers('w.ts', '// +kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,name=v.b.io,groups=g,resources=r,verbs=create,versions=v1,failurePolicy=fail\n');
    expect(diagnostics.map(formatDiagnostic)[0]).toMatch(/^w\.ts:1:4: marker ".*": missing argument "admissionReviewVersions"/);
  });

  it('reports two webhookconfiguration markers for the same kind', () => {
    const { diagnostics } = build('+kubebuilder:webhookconfiguration:mutating=true,name=foo', '+kubebuilder:webhookconfiguration:mutating=true,name=bar');
    expect(diagnostics.map((d) => d.message)).toEqual(['duplicate mutating kubebuilder:webhookconfiguration with name bar']);
  });

  it('writes nothing without webhook markers', () => {
    expect(emitWebhookManifestsYaml(buildWebhooks([]).configurations)).toBe('');
  });
});

describe('webhook conformance with controller-gen v0.21.0 goldens', () => {
  const cases = [
    ['controller-tools/webhook__manifests.yaml', 'controller-tools-webhook.fixture.ts'],
    ['kubebuilder-cronjob-tutorial/webhook-manifests.yaml', 'cronjob-webhook.fixture.ts'],
  ];
  if (!sharedInputPresent(conformance, 'webhook conformance with controller-gen goldens')) {
    it.skip(`needs ../shared/conformance (absent at ${conformance})`, () => {});
    return;
  }
  it.each(cases)('%s equals our output as parsed YAML', (golden, input) => {
    const expected = parseAllDocuments(readFileSync(conformance + golden, 'utf8')).map((d) => d.toJS());
    expect(parseAllDocuments(manifestsFor(input)).map((d) => d.toJS())).toEqual(expected);
  });
  it.each(cases)('%s equals our output byte for byte', (golden, input) => {
    expect(manifestsFor(input)).toBe(readFileSync(conformance + golden, 'utf8'));
  });
});
