/**
 * `kubeforge create webhook`: plans webhook handler skeletons for an existing kind (defaulting, validating,
 * conversion) with their `+kubebuilder:webhook` markers and a unit test, registered on the manager's
 * webhook server through internal/webhook/index.ts (made once), config/webhook and config/certmanager,
 * the manager patches, and the edits of config/default, cmd/main.ts, cmd/run-local.ts and PROJECT.
 */
import { resolve } from 'node:path';
import { checkAll, checkGroup, checkKind, checkVersion, ScaffoldInputError } from './names.js';
import { ScaffoldPlan } from './plan.js';
import { findResource, PROJECT_PATH, renderProjectFile } from './project-file.js';
import { render, renderBundle } from './render.js';
import { planInsertion, planUncomment, planUncommentSection } from './insert.js';
import { importPath, inMultigroupLayout, pascalCase, resourceNames, type ResourceNames } from './resource-layout.js';
import { BOILERPLATE_PATH, projectBoilerplate } from './boilerplate.js';
import { readProject } from './create-api-plan.js';
import { hasStorageVersionMarker, withStorageVersionMarker } from './storage-version.js';
import type { ProjectConfig, ProjectResource } from './project-file.js';

export interface CreateWebhookOptions {
  root: string;
  group: string;
  version: string;
  kind: string;
  defaulting?: boolean;
  programmaticValidation?: boolean;
  conversion?: boolean;
  /** `--spoke`: the versions that convert to and from the hub (`--version`); needs --conversion. */
  spoke?: string[];
  force?: boolean;
}

/** kubebuilder's webhook paths: `/mutate-<group with dashes>-<version>-<kind>`. */
export function webhookPath(verb: 'mutate' | 'validate', names: ResourceNames): string {
  return `/${verb}-${names.qualifiedGroup.replace(/\./g, '-')}-${names.version}-${names.lowerKind}`;
}

export function planCreateWebhook(options: CreateWebhookOptions): ScaffoldPlan {
  checkAll([() => checkGroup(options.group), () => checkVersion(options.version), () => checkKind(options.kind)]);
  const defaulting = options.defaulting ?? false;
  const validation = options.programmaticValidation ?? false;
  const conversion = options.conversion ?? false;
  if (!defaulting && !validation && !conversion) {
    throw new ScaffoldInputError('--defaulting', 'false', 'choose at least one of --defaulting, --programmatic-validation and --conversion');
  }
  if (!conversion && (options.spoke ?? []).length > 0) throw new ScaffoldInputError('--spoke', options.spoke!.join(','), '--spoke needs --conversion (the spokes convert to and from the hub --version)');
  const plan = new ScaffoldPlan(resolve(options.root), options.force ?? false);
  const config = readProject(plan);
  const resource = findResource(config, options.group, options.version, options.kind);
  if (!resource?.api) {
    throw new ScaffoldInputError('--kind', options.kind, `no API ${options.group}/${options.version} ${options.kind} in ${PROJECT_PATH}; run \`kubeforge create api\` for it first`);
  }
  const existing = resource.webhooks ?? { webhookVersion: 'v1' as const };
  const spokes = conversion ? checkSpokes(config, options) : [];
  const newSpokes = spokes.filter((v) => !(existing.spoke ?? []).includes(v));
  // A conversion webhook gains spokes without --force; the same spokes again is a repeat.
  const repeatedConversion = conversion && existing.conversion && newSpokes.length === 0;
  const repeated = [defaulting && existing.defaulting && '--defaulting', validation && existing.validation && '--programmatic-validation', repeatedConversion && '--conversion'].filter(Boolean);
  if (repeated.length > 0 && !options.force) {
    throw new ScaffoldInputError(String(repeated[0]), 'true', `${options.kind} already has this webhook (see ${PROJECT_PATH}); use --force to scaffold it again`);
  }

  const multigroup = inMultigroupLayout(resource, config.multigroup ?? false);
  const names = resourceNames({ ...options, plural: resource.plural, domain: config.domain, multigroup });
  const mutatePath = webhookPath('mutate', names);
  const validatePath = webhookPath('validate', names);
  const values = {
    ...names,
    namespaced: resource.api.namespaced,
    projectName: config.projectName,
    boilerplate: projectBoilerplate(plan.read(BOILERPLATE_PATH)),
    defaulting,
    validation,
    conversion,
    mutatePath,
    validatePath,
    typesImport: importPath(names.webhookDir, `${names.apiDir}/${names.fileStem}_types.ts`),
    crdFolderFromTest: importPath(names.webhookDir, 'config/crd/bases'),
  };

  planProjectWebhookFiles(plan, values);
  planWebhookManifestsResource(plan, defaulting || validation || (existing.defaulting ?? false) || (existing.validation ?? false));
  planCertManager(plan, { defaulting, validation, conversion });
  if (defaulting || validation) {
    // The handler file is the user's: a second run (with --force) renders every webhook the kind has.
    const withDefaulting = defaulting || (existing.defaulting ?? false);
    const withValidation = validation || (existing.validation ?? false);
    const paths = [...(withDefaulting ? [mutatePath] : []), ...(withValidation ? [validatePath] : [])];
    const handlerValues = { ...values, defaulting: withDefaulting, validation: withValidation, pathsJson: `[${paths.map((p) => `'${p}'`).join(', ')}]` };
    const handler = `${names.webhookDir}/${names.fileStem}_webhook.ts`;
    plan.create(handler, render('webhook/webhook.ts', handlerValues));
    plan.create(`${names.webhookDir}/${names.fileStem}_webhook.test.ts`, render('webhook/webhook.test.ts', handlerValues));
    planRegistration(plan, names, multigroup, 'Webhook', handler);
  }
  if (conversion) {
    const file = `${names.webhookDir}/${names.fileStem}_conversion.ts`;
    planConversionFiles(plan, config, names, values, file, options.force ? spokes : newSpokes);
    planRegistration(plan, names, multigroup, 'Conversion', file);
    planConversionPatch(plan, names, values);
  }

  const spokeList = [...new Set([...(existing.spoke ?? []), ...spokes])].sort();
  const updated = {
    ...resource,
    webhooks: { ...existing, ...(defaulting ? { defaulting: true } : {}), ...(validation ? { validation: true } : {}), ...(conversion ? { conversion: true, spoke: spokeList } : {}), webhookVersion: 'v1' as const },
  };
  plan.update(PROJECT_PATH, renderProjectFile({ ...config, resources: (config.resources ?? []).map((r) => (r === resource ? updated : r)) }));
  plan.assertNoConflicts();
  return plan;
}

/**
 * Imports `setup<Kind><What>WithManager` into internal/webhook/index.ts and adds its registrations. A
 * second version of a kind exports the same name from its own folder, so it is imported under an alias
 * with the version (`setupCronJobV2WebhookWithManager`), as kubebuilder imports each version's package
 * under its own name.
 */
function planRegistration(plan: ScaffoldPlan, names: ResourceNames, multigroup: boolean, what: 'Webhook' | 'Conversion', file: string): void {
  const exported = `setup${names.kind}${what}WithManager`;
  const from = importPath('internal/webhook', file);
  const group = multigroup ? pascalCase(names.group) : '';
  let alias = `setup${group}${names.kind}${what}WithManager`;
  if (importedFromElsewhere(plan.read('internal/webhook/index.ts') ?? '', alias, from)) alias = `setup${group}${names.kind}${pascalCase(names.version)}${what}WithManager`;
  const imported = alias === exported ? alias : `${exported} as ${alias}`;
  planInsertion(plan, 'internal/webhook/index.ts', 'imports', `import { ${imported} } from '${from}';`);
  planInsertion(plan, 'internal/webhook/index.ts', 'webhooks', `paths.push(...${alias}(mgr));`);
}

/** True when `name` is already imported into the index from a module other than `from`. */
function importedFromElsewhere(index: string, name: string, from: string): boolean {
  return index.split('\n').some((line) => {
    const match = /^import \{([^}]*)\} from '([^']+)';/.exec(line.trim());
    if (!match || match[2] === from) return false;
    return match[1]!.split(',').some((spec) => spec.trim().split(/\s+as\s+/).pop() === name);
  });
}

/** What every project with webhooks needs once: the index, config and wiring. */
function planProjectWebhookFiles(plan: ScaffoldPlan, values: { boilerplate: string; projectName: string }): void {
  plan.createIfMissing('internal/webhook/index.ts', render('webhook/webhook-index.ts', values));
  for (const [name, content] of renderBundle('webhook/config.yaml', values)) plan.createIfMissing(`config/${name}`, content);
  planInsertion(plan, 'config/network-policy/kustomization.yaml', 'networkpolicies', '- allow-webhook-traffic.yaml');
  planUncomment(plan, 'config/default/kustomization.yaml', ['#- ../webhook']);
  planUncomment(plan, 'config/default/kustomization.yaml', ['#- path: manager_webhook_patch.yaml', '#  target:', '#    kind: Deployment']);
  for (const entry of ['cmd/main.ts', 'cmd/run-local.ts']) {
    planInsertion(plan, entry, 'imports', "import { setupWebhooks } from '../internal/webhook/index.js';");
    planInsertion(plan, entry, 'webhooks', "if (process.env.ENABLE_WEBHOOKS !== 'false') setupWebhooks(mgr);");
  }
}

/**
 * config/webhook lists manifests.yaml, which `make manifests` writes only when there are admission
 * webhooks: a project with only a conversion webhook leaves it out (kustomize fails on a missing file),
 * and the first defaulting or validating webhook puts it back.
 */
function planWebhookManifestsResource(plan: ScaffoldPlan, admission: boolean): void {
  const file = 'config/webhook/kustomization.yaml';
  const text = plan.read(file);
  if (text === undefined) return;
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === '- manifests.yaml');
  if (!admission && at >= 0) plan.update(file, [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'));
  if (admission && at < 0) {
    const resources = lines.findIndex((l) => l.trim() === 'resources:');
    if (resources < 0) plan.conflict(`${file}: no "resources:" list to add manifests.yaml (the admission webhook configurations) to; add it by hand`);
    else plan.update(file, [...lines.slice(0, resources + 1), '- manifests.yaml', ...lines.slice(resources + 1)].join('\n'));
  }
}

/**
 * cert-manager in config/default, as kubebuilder 4's `create webhook` enables it: ../certmanager, and the
 * replacements that put the webhook Service into the certificate's DNS names and the certificate into the
 * inject-ca-from annotation of the configurations this webhook has (CRDs for conversion).
 */
function planCertManager(plan: ScaffoldPlan, kinds: { defaulting: boolean; validation: boolean; conversion: boolean }): void {
  const file = 'config/default/kustomization.yaml';
  // A config/default made before these sections existed is left for the user (its own [CERTMANAGER] lines).
  if (!(plan.read(file) ?? '').includes('# [CERTMANAGER] replacements')) return;
  planUncomment(plan, file, ['#- ../certmanager']);
  const sections = ['replacements', 'any webhook', ...(kinds.validation ? ['a validating webhook'] : []), ...(kinds.defaulting ? ['a defaulting webhook'] : []), ...(kinds.conversion ? ['a conversion webhook'] : [])];
  for (const section of sections) planUncommentSection(plan, file, `# [CERTMANAGER] ${section}`);
}

/**
 * The CRD patch that routes conversion to the webhook, enabled in config/crd/kustomization.yaml as
 * kubebuilder 4 enables it (the CA comes from cert-manager's inject-ca-from, see planCertManager).
 */
function planConversionPatch(plan: ScaffoldPlan, names: ResourceNames, values: object): void {
  const file = `patches/webhook_in_${names.plural}.yaml`;
  const kustomization = 'config/crd/kustomization.yaml';
  plan.createIfMissing(`config/crd/${file}`, render('webhook/crd-conversion-patch.yaml', values));
  // kubebuilder's config/crd/kustomizeconfig.yaml: the prefixed name and namespace of the webhook Service
  // reach the CRD's conversion clientConfig.
  plan.createIfMissing('config/crd/kustomizeconfig.yaml', render('webhook/crd-kustomizeconfig.yaml', values));
  const current = plan.read(kustomization) ?? '';
  if (!/^configurations:/m.test(current)) plan.update(kustomization, `${current.replace(/\n*$/, '\n')}\n# the following config is for teaching kustomize how to do kustomization for CRDs.\nconfigurations:\n- kustomizeconfig.yaml\n`);
  if (/^#patches:$/m.test(plan.read(kustomization) ?? '')) planUncomment(plan, kustomization, ['#patches:']);
  const text = plan.read(kustomization) ?? '';
  // A project scaffolded before the patch was enabled has it commented: enable that line instead.
  if (text.split('\n').some((l) => l.trim() === `#- path: ${file}`)) planUncomment(plan, kustomization, [`#- path: ${file}`]);
  else planInsertion(plan, kustomization, 'crdkustomizewebhookpatch', `- path: ${file}`);
}

/**
 * `--spoke` versions: each an existing API of the same group and kind, none the hub. Every problem is
 * reported at once, before anything is planned.
 */
function checkSpokes(config: ProjectConfig, options: CreateWebhookOptions): string[] {
  const spokes = [...new Set((options.spoke ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))];
  if (spokes.length === 0) {
    throw new ScaffoldInputError('--spoke', '', `--conversion needs the versions that convert to and from the hub ${options.version}: --spoke <version>[,<version>…]`);
  }
  checkAll(spokes.map((v) => () => checkSpokeVersion(v)));
  for (const spoke of spokes) {
    if (spoke === options.version) throw new ScaffoldInputError('--spoke', spoke, `${spoke} is the hub (--version); a spoke must be another version of ${options.kind}`);
    if (!findResource(config, options.group, spoke, options.kind)?.api) {
      const versions = (config.resources ?? []).filter((r) => r.group === options.group && r.kind === options.kind && r.api).map((r) => r.version);
      throw new ScaffoldInputError('--spoke', spoke, `no API ${options.group}/${spoke} ${options.kind} in ${PROJECT_PATH} (it has ${versions.join(', ')}); run \`kubeforge create api --group ${options.group} --version ${spoke} --kind ${options.kind}\` first`);
    }
  }
  return spokes.sort();
}

/**
 * The hub file (api/<hub>/<kind>_conversion.ts, implementing Hub), a spoke file and its round-trip test
 * per spoke (implementing Convertible), the registration listing them, and the storage-version marker on
 * the hub — refused when another version of the kind carries it, since the hub must be the storage version.
 */
function planConversionFiles(plan: ScaffoldPlan, config: ProjectConfig, hub: ResourceNames, values: Record<string, unknown>, registration: string, spokes: string[]): void {
  const siblings = (config.resources ?? []).filter((r) => r.group === hub.group && r.kind === hub.kind && r.api && r.version !== hub.version);
  for (const other of siblings) {
    const file = `${namesOf(config, other).apiDir}/${hub.fileStem}_types.ts`;
    if (hasStorageVersionMarker(plan.read(file) ?? '', hub.kind)) {
      plan.conflict(`${file}: ${hub.kind} ${other.version} is marked +kubebuilder:storageversion, but the hub ${hub.version} must be the storage version; move the marker to ${hub.apiDir}/${hub.fileStem}_types.ts or make ${other.version} the hub (--version ${other.version})`);
    }
  }
  const hubTypes = `${hub.apiDir}/${hub.fileStem}_types.ts`;
  const marked = withStorageVersionMarker(plan.read(hubTypes) ?? '', hub.kind);
  if (marked === undefined) plan.conflict(`${hubTypes}: no \`export interface ${hub.kind}\` to mark as the storage version (+kubebuilder:storageversion)`);
  else plan.update(hubTypes, marked);

  const hubConversion = `${hub.apiDir}/${hub.fileStem}_conversion.ts`;
  const lowerCamelKind = hub.kind[0]!.toLowerCase() + hub.kind.slice(1);
  const common = { ...values, lowerCamelKind, registrationFile: registration, hubImport: importPath(hub.webhookDir, hubConversion) };
  plan.createIfMissing(hubConversion, render('webhook/conversion-hub.ts', common));
  plan.createIfMissing(registration, render('webhook/conversion.ts', common));
  for (const version of spokes) {
    const spoke = namesOf(config, findResource(config, hub.group, version, hub.kind)!);
    const spokeValues = {
      ...common,
      spokeVersion: version,
      hubVersion: hub.version,
      spokeSuffix: pascalCase(version),
      hubSuffix: pascalCase(hub.version),
      hubTypesImport: importPath(spoke.apiDir, hubTypes),
      hubConversionImport: importPath(spoke.apiDir, hubConversion),
      spokeApiVersion: spoke.apiVersion,
      hubApiVersion: hub.apiVersion,
      crdFolderFromSpoke: importPath(spoke.apiDir, 'config/crd/bases'),
    };
    const spokeFile = `${spoke.apiDir}/${hub.fileStem}_conversion.ts`;
    plan.create(spokeFile, render('webhook/conversion-spoke.ts', spokeValues));
    plan.create(`${spoke.apiDir}/${hub.fileStem}_conversion.test.ts`, render('webhook/conversion-roundtrip.test.ts', spokeValues));
    planInsertion(plan, registration, 'imports', `import { ${hub.kind}${pascalCase(version)}Convertible } from '${importPath(hub.webhookDir, spokeFile)}';`);
    planInsertion(plan, registration, 'spokes', `${lowerCamelKind}Conversion.spoke(${hub.kind}${pascalCase(version)}Convertible);`);
  }
}

/** A spoke's version spelled as --version must be, reported against --spoke. */
function checkSpokeVersion(version: string): void {
  try {
    checkVersion(version);
  } catch (err) {
    if (err instanceof ScaffoldInputError) throw new ScaffoldInputError('--spoke', version, err.message.slice(err.message.indexOf(': ') + 2));
    throw err;
  }
}

function namesOf(config: ProjectConfig, resource: ProjectResource): ResourceNames {
  return resourceNames({ ...resource, plural: resource.plural, domain: config.domain, multigroup: inMultigroupLayout(resource, config.multigroup ?? false) });
}
