// The model is the seam for RBAC and webhooks: the reader turns the controllers' markers into the model's
// declarations (catalogue defaults and selector syntax applied), and the RBAC and webhook generators work from
// those declarations alone — built by hand here, with no marker in sight.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRbac } from '../generate/rbac/index.js';
import { buildWebhooks } from '../generate/webhook/index.js';
import { formatDiagnostic } from '../markers/types.js';
import type { RbacRuleDeclaration, WebhookDeclaration } from '../model/index.js';
import { readControllerDeclarations } from './controller-declarations.js';
import { loadApiProject } from './index.js';

const GV = '// +groupName=toys.example.com\nexport {};\n';
const CONTROLLER = `// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list,namespace=prod,roleName=reader
export class ToyReconciler {}
`;
const WEBHOOK = `// +kubebuilder:webhook:path=/validate,mutating=false,failurePolicy=fail,sideEffects=None,groups=toys.example.com,resources=toys,verbs=create,versions=v1,name=vtoy.example.com,admissionReviewVersions=v1,objectSelector=matchLabels~tier=web
// +kubebuilder:webhookconfiguration:mutating=false,name=toy-validation
export class ToyValidator {}
`;

describe('controller declarations in the API model', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-controllers-'));
    const files: Record<string, string> = {
      'api/v1/groupversion_info.ts': GV,
      'internal/controller/toy_controller.ts': CONTROLLER,
      'internal/webhook/v1/toy_webhook.ts': WEBHOOK,
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('loadApiProject reads the controller files into model.controllers', async () => {
    const controllerFiles = ['internal/controller/toy_controller.ts', 'internal/webhook/v1/toy_webhook.ts'];
    const { model, diagnostics } = await loadApiProject({ root, controllerFiles });
    expect(diagnostics).toEqual([]);
    expect(model.controllers?.rbacRules).toEqual([
      {
        groups: ['core'],
        resources: ['pods'],
        resourceNames: [],
        urls: [],
        verbs: ['get', 'list'],
        namespace: 'prod',
        roleName: 'reader',
        position: { file: 'internal/controller/toy_controller.ts', line: 1, column: 4 },
      },
    ]);
    expect(model.controllers?.webhooks).toHaveLength(1);
    expect(model.controllers?.webhooks[0]).toMatchObject({
      mutating: false,
      name: 'vtoy.example.com',
      path: '/validate',
      failurePolicy: 'fail',
      verbs: ['create'],
      // the catalogue's defaults for the Service, and the selector syntax read into a LabelSelector
      service: { name: 'webhook-service', namespace: 'system' },
      objectSelector: { matchLabels: { tier: 'web' } },
      position: { file: 'internal/webhook/v1/toy_webhook.ts', line: 1, column: 4 },
    });
    expect(model.controllers?.webhookConfigurations).toEqual([
      { mutating: false, name: 'toy-validation', position: { file: 'internal/webhook/v1/toy_webhook.ts', line: 2, column: 4 } },
    ]);
  });

  it('leaves the controllers out when no controller files are given (generate)', async () => {
    const { model } = await loadApiProject({ root });
    expect(model.groups.map((g) => g.name)).toEqual(['toys.example.com']);
    expect(model.controllers).toBeUndefined();
  });

  it('reports a selector that does not parse at its marker', () => {
    const text = '// +kubebuilder:webhook:path=/v,mutating=false,sideEffects=None,name=v.b.io,groups=g,resources=r,verbs=create,versions=v1,admissionReviewVersions=v1,failurePolicy=fail,namespaceSelector=env=prod\n';
    const { declarations, diagnostics } = readControllerDeclarations(['w.ts'], () => text);
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      `w.ts:1:4: marker ${JSON.stringify(text.slice(3, -1))}: invalid namespaceSelector: "env=prod" must start with matchLabels~ or matchExpressions~`,
    ]);
    expect(declarations.webhooks[0]?.namespaceSelector).toBeUndefined();
  });
});

describe('the RBAC and webhook generators see only the model', () => {
  const at = { file: 'internal/controller/x.ts', line: 3, column: 4 };

  it('builds roles from hand-made rule declarations', () => {
    const rules: RbacRuleDeclaration[] = [
      { groups: ['batch'], resources: ['jobs', 'cronjobs'], resourceNames: [], urls: [], verbs: ['get'], namespace: '', roleName: '', position: at },
      { groups: ['batch'], resources: ['jobs'], resourceNames: [], urls: [], verbs: ['watch'], namespace: '', roleName: '', position: at },
    ];
    expect(buildRbac(rules)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'manager-role' },
        rules: [
          { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get'] },
          { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'watch'] },
        ],
      },
    ]);
  });

  it('builds webhook configurations from hand-made declarations, and quotes the source in its errors', () => {
    const webhook: WebhookDeclaration = {
      source: '+kubebuilder:webhook:…',
      position: at,
      mutating: true,
      name: 'm.example.com',
      url: 'https://hooks.example.com/m',
      failurePolicy: 'ignore',
      sideEffects: 'none',
      groups: ['core'],
      resources: ['pods'],
      verbs: ['create', 'delete'],
      versions: ['v1'],
      admissionReviewVersions: ['v1'],
      webhookVersions: [],
      service: { name: 'webhook-service', namespace: 'system' },
    };
    const built = buildWebhooks([webhook], [{ mutating: true, name: 'pods-mutation', position: at }]);
    expect(built.diagnostics).toEqual([]);
    expect(built.configurations).toEqual([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'pods-mutation' },
        webhooks: [
          {
            admissionReviewVersions: ['v1'],
            clientConfig: { url: 'https://hooks.example.com/m' },
            failurePolicy: 'Ignore',
            name: 'm.example.com',
            rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['pods'] }],
            sideEffects: 'None',
          },
        ],
      },
    ]);
    const broken = buildWebhooks([{ ...webhook, timeoutSeconds: 0 }]);
    expect(broken.diagnostics.map(formatDiagnostic)).toEqual(['internal/controller/x.ts:3:4: marker "+kubebuilder:webhook:…": TimeoutSeconds must be between 1 and 30 seconds']);
  });

  it('imports neither the marker catalogue nor the marker parser nor the reader', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const sources = ['rbac', 'webhook'].flatMap((folder) => {
      const dir = path.join(here, '..', 'generate', folder);
      return fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .map((name) => path.join(dir, name));
    });
    expect(sources.length).toBeGreaterThanOrEqual(4);
    const imports = sources.flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!));
    expect(imports).toContain('../../model/index.js');
    expect(imports.filter((target) => /markers\/(catalogue|collect|parse-arguments|label-selector)|reader\//.test(target))).toEqual([]);
  });
});
