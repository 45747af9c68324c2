import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { controllerDeclarationsOf, readControllerDeclarations } from '../../reader/controller-declarations.js';
import { scanFileMarkers } from '../../reader/file-markers.js';
import { buildRbac, emitRoleYaml } from './index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const conformance = `${sharedPath('conformance')}/`;

function roleYamlFor(fixtureName: string, source?: string): string {
  const path = fixture(fixtureName);
  const { declarations, diagnostics } = readControllerDeclarations([path], () => source ?? readFileSync(path, 'utf8'));
  expect(diagnostics).toEqual([]);
  return emitRoleYaml(buildRbac(declarations.rbacRules));
}

function rbacFrom(...markerLines: string[]) {
  const { declarations, diagnostics } = readControllerDeclarations(['internal/controller/x.ts'], () => markerLines.map((l) => `// ${l}\n`).join(''));
  expect(diagnostics).toEqual([]);
  return buildRbac(declarations.rbacRules);
}

describe('RBAC generator', () => {
  it('splits, normalises, merges and sorts rules into one ClusterRole', () => {
    const [role] = rbacFrom(
      '+kubebuilder:rbac:groups=batch,resources=jobs;cronjobs,verbs=get;list',
      '+kubebuilder:rbac:groups=batch,resources=jobs,verbs=watch',
      '+kubebuilder:rbac:groups=core,resources=pods,verbs=get',
    );
    expect(role).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'manager-role' },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list'] },
        { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
  });

  it('makes namespaced Roles for namespace= and honours roleName= and the roleName option', () => {
    const roles = rbacFrom('+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,namespace=prod', '+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,roleName=reader');
    expect(roles.map((r) => [r.kind, r.metadata])).toEqual([
      ['ClusterRole', { name: 'reader' }],
      ['Role', { name: 'manager-role', namespace: 'prod' }],
    ]);
    expect(buildRbac([], { roleName: 'x' })).toEqual([]);
    const { markers } = scanFileMarkers('c.ts', '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get\n');
    expect(buildRbac(controllerDeclarationsOf(markers).declarations.rbacRules, { roleName: 'my-operator' })[0].metadata.name).toBe('my-operator');
  });

  it('writes URL rules without apiGroups and collapses verbs containing * to ["*"]', () => {
    const [role] = rbacFrom('+kubebuilder:rbac:urls=/metrics,verbs=get', '+kubebuilder:rbac:groups=x,resources=y,verbs=get;*');
    expect(role.rules).toEqual([
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
      { apiGroups: ['x'], resources: ['y'], verbs: ['*'] },
    ]);
    expect(emitRoleYaml([role])).toContain("  verbs:\n  - '*'\n");
  });

  it('writes nothing when there are no rules', () => {
    expect(emitRoleYaml(buildRbac([]))).toBe('');
  });

  it('never reads markers out of strings, template literals or regular expressions', () => {
    const text = readFileSync(fixture('cronjob-controller.fixture.ts'), 'utf8');
    const { markers } = scanFileMarkers('c.ts', text);
    expect(markers.every((m) => !String(m.args.groups).includes('evil'))).toBe(true);
    expect(markers).toHaveLength(5);
  });
});

describe('RBAC conformance with controller-gen v0.21.0 goldens', () => {
  const cases = [
    ['controller-tools/rbac__role.yaml', 'controller-tools-controller.fixture.ts'],
    ['kubebuilder-cronjob-tutorial/role.yaml', 'cronjob-controller.fixture.ts'],
  ];
  if (!sharedInputPresent(conformance, 'RBAC conformance with controller-gen goldens')) {
    it.skip(`needs ../shared/conformance (absent at ${conformance})`, () => {});
    return;
  }
  it.each(cases)('%s equals our output as parsed YAML', (golden, input) => {
    const expected = parseAllDocuments(readFileSync(conformance + golden, 'utf8')).map((d) => d.toJS());
    const actual = parseAllDocuments(roleYamlFor(input)).map((d) => d.toJS());
    expect(actual).toEqual(expected);
  });
  it.each(cases)('%s equals our output byte for byte', (golden, input) => {
    expect(roleYamlFor(input)).toBe(readFileSync(conformance + golden, 'utf8'));
  });
});
