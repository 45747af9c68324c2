/**
 * `kubeforge create api`: plans a new kind — its types, the group's groupversion_info, a controller and
 * its test, a sample, admin/editor/viewer roles — and the insertions into PROJECT, the kustomizations and
 * internal/controller/index.ts. Every name and the project's state are checked before anything is planned.
 * With `--plugins deploy-image/v1-alpha` the kind's files come from that plugin (deploy-image-plan.ts).
 */
import { resolve } from 'node:path';
import { checkAll, checkGroup, checkKind, checkPlural, checkVersion, ScaffoldInputError } from './names.js';
import { ScaffoldPlan } from './plan.js';
import { findResource, parseProjectFile, PROJECT_PATH, renderProjectFile, type ProjectConfig, type ProjectResource } from './project-file.js';
import { render, renderBundle } from './render.js';
import { planInsertion } from './insert.js';
import { importPath, inMultigroupLayout, resourceNames, type ResourceNames } from './resource-layout.js';
import { noProjectMessage } from './project-root.js';
import { BOILERPLATE_PATH, projectBoilerplate } from './boilerplate.js';
import { hasStorageVersionMarker, withStorageVersionMarker } from './storage-version.js';
import { DEPLOY_IMAGE_PLUGIN, resolvePlugins, type DeployImageFlags } from './plugins.js';
import { checkDeployImageFlags, DEPLOY_IMAGE_TEMPLATES, deployImageValues, planDeployImageFiles, withDeployImageConfig, type DeployImageSettings } from './deploy-image-plan.js';

/** The templates of a kind's own files (a plugin may swap them for its own). */
interface ApiTemplates {
  types: string;
  sample: string;
  controller: string;
  controllerTest: string;
}

const BASE_TEMPLATES: ApiTemplates = { types: 'api/types.ts', sample: 'api/sample.yaml', controller: 'api/controller.ts', controllerTest: 'api/controller.test.ts' };

export interface CreateApiOptions extends DeployImageFlags {
  root: string;
  group: string;
  version: string;
  kind: string;
  /** Scaffold the types (default true). */
  resource?: boolean;
  /** Scaffold the controller (default true). */
  controller?: boolean;
  namespaced?: boolean;
  plural?: string;
  force?: boolean;
  /** Switch the project to the multigroup layout (only before its first API). */
  multigroup?: boolean;
  /** `--plugins`: comma-separated plugin keys (src/scaffold/plugins.ts). */
  plugins?: string;
}

/** Reads PROJECT, with an error that tells the user to run init first. */
export function readProject(plan: ScaffoldPlan): ProjectConfig {
  const text = plan.read(PROJECT_PATH);
  if (text === undefined) throw new Error(noProjectMessage(plan.root));
  return parseProjectFile(text);
}

function checkLayout(config: ProjectConfig, options: CreateApiOptions): boolean {
  const resources = config.resources ?? [];
  let multigroup = config.multigroup ?? false;
  if (options.multigroup && !multigroup) {
    if (resources.length > 0) {
      throw new ScaffoldInputError('--multigroup', 'true', 'the project already has APIs in the single-group layout (api/<version>); run `kubeforge edit --multigroup` first (existing APIs stay where they are)');
    }
    multigroup = true;
  }
  const otherGroup = resources.find((r) => r.group !== options.group);
  if (!multigroup && otherGroup) {
    throw new ScaffoldInputError('--group', options.group, `this single-group project already has the group "${otherGroup.group}"; a second group needs the multigroup layout (\`kubeforge edit --multigroup\`)`);
  }
  return multigroup;
}

export function planCreateApi(options: CreateApiOptions): { plan: ScaffoldPlan; names: ResourceNames } {
  checkAll([
    () => checkGroup(options.group),
    () => checkVersion(options.version),
    () => checkKind(options.kind),
    () => options.plural !== undefined && checkPlural(options.plural),
  ]);
  const plugins = resolvePlugins(options.plugins, options);
  const deployImage: DeployImageSettings | undefined = plugins.includes(DEPLOY_IMAGE_PLUGIN) ? checkDeployImageFlags(options, options) : undefined;
  const withResource = options.resource ?? true;
  const plan = new ScaffoldPlan(resolve(options.root), options.force ?? false);
  const config = readProject(plan);
  const otherVersions = (config.resources ?? []).filter((r) => r.group === options.group && r.kind === options.kind && r.version !== options.version);
  // A new version of a kind that already has a controller gets none unless asked: one controller serves every version.
  const withController = options.controller ?? !otherVersions.some((r) => r.controller);
  if (!withResource && !withController) throw new ScaffoldInputError('--resource', 'false', 'with --controller=false there is nothing to create');
  const multigroup = checkLayout(config, options);
  const existing = findResource(config, options.group, options.version, options.kind);
  if (existing && !options.force) {
    throw new ScaffoldInputError('--kind', options.kind, `the API ${options.group}/${options.version} ${options.kind} already exists in ${PROJECT_PATH} (use --force to scaffold it again)`);
  }
  // Re-scaffolding (--force, e.g. --resource=false to add a controller) keeps what PROJECT recorded.
  const names = resourceNames({ ...options, plural: options.plural ?? existing?.plural, domain: config.domain, multigroup: inMultigroupLayout(existing, multigroup) });
  const namespaced = options.namespaced ?? existing?.api?.namespaced ?? true;
  const values = {
    ...names,
    namespaced,
    projectName: config.projectName,
    boilerplate: projectBoilerplate(plan.read(BOILERPLATE_PATH)),
    resourceMarker: [namespaced ? '' : 'scope=Cluster', names.customPlural ? `path=${names.plural}` : ''].filter(Boolean).join(','),
    typesImport: importPath(names.controllerDir, `${names.apiDir}/${names.fileStem}_types.ts`),
    crdFolderFromTest: importPath(names.controllerDir, 'config/crd/bases'),
    testNamespace: namespaced ? 'default' : '',
    ...(deployImage ? deployImageValues(names, deployImage) : {}),
  };
  const templates = deployImage ? DEPLOY_IMAGE_TEMPLATES : BASE_TEMPLATES;

  if (withResource) planResourceFiles(plan, names, values, templates);
  if (withResource && !existing) planStorageVersion(plan, config, names, otherVersions);
  else if (plan.read(`${names.apiDir}/${names.fileStem}_types.ts`) === undefined) {
    plan.conflict(`--resource=false needs the types in ${names.apiDir}/${names.fileStem}_types.ts, which do not exist`);
  }
  if (withController) planControllerFiles(plan, names, values, templates);
  if (deployImage) planDeployImageFiles(plan, names, values, deployImage);

  const resource: ProjectResource = {
    ...(withResource ? { api: { crdVersion: 'v1', namespaced } } : existing?.api ? { api: existing.api } : {}),
    ...(withController || existing?.controller ? { controller: true } : {}),
    domain: config.domain,
    group: names.group,
    kind: names.kind,
    path: `${config.repo}/${names.apiDir}`,
    ...(names.customPlural ? { plural: names.plural } : {}),
    version: names.version,
    ...(existing?.webhooks ? { webhooks: existing.webhooks } : {}),
  };
  const others = (config.resources ?? []).filter((r) => r !== existing);
  const pluginConfig = deployImage ? { plugins: withDeployImageConfig(config, names, config.domain, deployImage) } : {};
  plan.update(PROJECT_PATH, renderProjectFile({ ...config, ...(multigroup ? { multigroup: true } : {}), ...pluginConfig, resources: [...others, resource] }));
  plan.assertNoConflicts();
  return { plan, names };
}

function planResourceFiles(plan: ScaffoldPlan, names: ResourceNames, values: object, templates: ApiTemplates): void {
  plan.createIfMissing(`${names.apiDir}/groupversion_info.ts`, render('api/groupversion_info.ts', values));
  plan.create(`${names.apiDir}/${names.fileStem}_types.ts`, render(templates.types, values));
  const sample = `${names.group}_${names.version}_${names.lowerKind}.yaml`;
  plan.create(`config/samples/${sample}`, render(templates.sample, values));
  planInsertion(plan, 'config/samples/kustomization.yaml', 'manifestskustomizesamples', `- ${sample}`);
  planInsertion(plan, 'config/crd/kustomization.yaml', 'crdkustomizeresource', `- bases/${names.qualifiedGroup}_${names.plural}.yaml`);
  const roleFiles: string[] = [];
  for (const [role, content] of renderBundle('api/roles.yaml', values)) {
    const file = `${names.roleFileStem}_${role}_role.yaml`;
    // One set of roles per group and kind, shared by its versions.
    plan.createIfMissing(`config/rbac/${file}`, content);
    roleFiles.push(`- ${file}`);
  }
  planInsertion(plan, 'config/rbac/kustomization.yaml', 'crdroles', roleFiles.join('\n'));
}

/**
 * A kind's second version: the CRD needs exactly one storage version, so when the existing versions mark
 * none, the one that exists is marked (`+kubebuilder:storageversion`) — objects already stored stay in it,
 * as kubebuilder's tutorial keeps v1 as the storage version when it adds v2. With several unmarked
 * versions the choice is the user's (`make manifests` says so).
 */
function planStorageVersion(plan: ScaffoldPlan, config: ProjectConfig, names: ResourceNames, otherVersions: ProjectResource[]): void {
  const withTypes = otherVersions.filter((r) => r.api);
  const files = withTypes.map((r) => `${resourceNames({ ...r, domain: config.domain, multigroup: inMultigroupLayout(r, config.multigroup ?? false) }).apiDir}/${names.fileStem}_types.ts`);
  if (files.length !== 1 || files.some((f) => hasStorageVersionMarker(plan.read(f) ?? '', names.kind))) return;
  const marked = withStorageVersionMarker(plan.read(files[0]!) ?? '', names.kind);
  if (marked !== undefined) plan.update(files[0]!, marked);
}

function planControllerFiles(plan: ScaffoldPlan, names: ResourceNames, values: object, templates: ApiTemplates): void {
  plan.create(`${names.controllerDir}/${names.fileStem}_controller.ts`, render(templates.controller, values));
  plan.create(`${names.controllerDir}/${names.fileStem}_controller.test.ts`, render(templates.controllerTest, values));
  const from = importPath('internal/controller', `${names.controllerDir}/${names.fileStem}_controller.ts`);
  const imported = names.setupAlias === `setup${names.kind}Controller` ? names.setupAlias : `setup${names.kind}Controller as ${names.setupAlias}`;
  planInsertion(plan, 'internal/controller/index.ts', 'imports', `import { ${imported} } from '${from}';`);
  planInsertion(plan, 'internal/controller/index.ts', 'builder', `${names.setupAlias}(mgr);`);
}
