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

export interface CreateWebhookOptions {
  root: string;
  group: string;
  version: string;
  kind: string;
  defaulting?: boolean;
  programmaticValidation?: boolean;
  conversion?: boolean;
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
  const plan = new ScaffoldPlan(resolve(options.root), options.force ?? false);
  const config = readProject(plan);
  const resource = findResource(config, options.group, options.version, options.kind);
  if (!resource?.api) {
    throw new ScaffoldInputError('--kind', options.kind, `no API ${options.group}/${options.version} ${options.kind} in ${PROJECT_PATH}; run \`kubeforge create api\` for it first`);
  }
  const existing = resource.webhooks ?? { webhookVersion: 'v1' as const };
  const repeated = [defaulting && existing.defaulting && '--defaulting', validation && existing.validation && '--programmatic-validation', conversion && existing.conversion && '--conversion'].filter(Boolean);
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
    admissionImport: importPath(names.webhookDir, 'internal/webhook/admission.ts'),
    crdFolderFromTest: importPath(names.webhookDir, 'config/crd/bases'),
  };

  planProjectWebhookFiles(plan, values);
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
    plan.create(file, render('webhook/conversion.ts', values));
    planRegistration(plan, names, multigroup, 'Conversion', file);
    planConversionPatch(plan, names, values);
  }

  const updated = { ...resource, webhooks: { ...existing, ...(defaulting ? { defaulting: true } : {}), ...(validation ? { validation: true } : {}), ...(conversion ? { conversion: true } : {}), webhookVersion: 'v1' as const } };
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

/** What every project with webhooks needs once: the index, handler shapes, config and wiring. */
function planProjectWebhookFiles(plan: ScaffoldPlan, values: { boilerplate: string; projectName: string }): void {
  plan.createIfMissing('internal/webhook/index.ts', render('webhook/webhook-index.ts', values));
  plan.createIfMissing('internal/webhook/admission.ts', render('webhook/admission.ts', values));
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

/** The CRD patch that routes conversion to the webhook (enable it in config/crd/kustomization.yaml). */
function planConversionPatch(plan: ScaffoldPlan, names: ResourceNames, values: object): void {
  const file = `patches/webhook_in_${names.plural}.yaml`;
  plan.createIfMissing(`config/crd/${file}`, render('webhook/crd-conversion-patch.yaml', values));
  planInsertion(plan, 'config/crd/kustomization.yaml', 'crdkustomizewebhookpatch', `#- path: ${file}`);
}
