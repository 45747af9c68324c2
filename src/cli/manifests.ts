/**
 * `kubeforge manifests`: reads the API types and the controllers' `+kubebuilder:rbac` / `+kubebuilder:webhook`
 * markers into the API model and writes, from the model alone, `config/crd/bases/<group>_<plural>.yaml`,
 * `config/rbac/role.yaml` (when there are RBAC rules) and `config/webhook/manifests.yaml` (when there are webhook
 * markers), as kubebuilder's `make manifests` does with controller-gen. `planManifests` is the same work without
 * the printing.
 */
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { splitWarnings } from '../markers/types.js';
import { loadGeneratorModules, runGeneratorCommand, type GeneratorRunResult } from './generator-run.js';
import { plannedFileWithBytes, type PlannedFile } from './output-files.js';
import { listTypeScriptSources, projectPaths } from './project-paths.js';
import { apiImportSpellingWarnings } from '../reader/import-spellings.js';

export interface ManifestsOptions {
  root: string;
  /** Folders with API types; default `api`. */
  paths?: string[];
  /** Folders with controllers and webhooks (RBAC and webhook markers); default `internal`. */
  controllerPaths?: string[];
  /** controller-gen's `crd:maxDescLen`; undefined keeps descriptions whole. */
  maxDescLen?: number;
  allowDangerousTypes?: boolean;
  /** controller-gen's `crd:generateEmbeddedObjectMeta`: nested ObjectMeta keeps name, namespace, labels, annotations, finalizers. */
  generateEmbeddedObjectMeta?: boolean;
  check?: boolean;
  /** `--strict-markers`: markers controller-gen ignores (warnings otherwise) are errors. */
  strictMarkers?: boolean;
}

/** Reads everything and plans every manifest; writes nothing. */
export async function planManifests(options: ManifestsOptions): Promise<GeneratorRunResult> {
  // Loaded here, not at the top, so `kubeforge --help` and other commands do not pay for the TypeScript parser.
  const { loadApiProject, buildCrds, celRuleDiagnostics, emitCrdYamlPieces, joinYamlPieces, encodeYamlPieces, buildRbac, emitRoleYaml, DEFAULT_ROLE_NAME, buildWebhooks, emitWebhookManifestsYaml } =
    await loadGeneratorModules();
  const root = resolve(options.root);
  const check = options.check ?? false;

  // Every stage runs, so one run reports every error; YAML is emitted only when there is none.
  const apiPaths = projectPaths(options.paths, 'api');
  const controllerFiles = listTypeScriptSources(root, projectPaths(options.controllerPaths, 'internal'));
  const loaded = await loadApiProject({ root, apiPaths, controllerFiles });
  // Spellings the reader accepts and tsc rejects (make build would fail): warned, never an error.
  const importWarnings = apiImportSpellingWarnings(root, apiPaths);
  const crds = buildCrds(loaded.model, {
    maxDescLen: options.maxDescLen,
    allowDangerousTypes: options.allowDangerousTypes ?? false,
    generateEmbeddedObjectMeta: options.generateEmbeddedObjectMeta ?? false,
  });
  const controllers = loaded.model.controllers ?? { rbacRules: [], webhooks: [], webhookConfigurations: [] };
  const roles = buildRbac(controllers.rbacRules, { roleName: DEFAULT_ROLE_NAME });
  const webhooks = buildWebhooks(controllers.webhooks, controllers.webhookConfigurations);
  // Every rule compiled and cost-estimated as the API server does when the CRD is applied.
  const celDiagnostics = await celRuleDiagnostics(crds.crds, loaded.model);
  const { errors: diagnostics, warnings: markerWarnings } = splitWarnings(
    [...loaded.diagnostics, ...crds.diagnostics, ...celDiagnostics, ...webhooks.diagnostics],
    options.strictMarkers ?? false,
  );
  const warnings = [...importWarnings, ...markerWarnings];
  if (diagnostics.length > 0) return { root, command: 'manifests', files: [], diagnostics, warnings, check };

  // Each CRD as pieces: the text shared between CRDs (an embedded PodTemplateSpec's) is encoded once, not per file.
  const files: PlannedFile[] = crds.crds
    .map((crd) => {
      const pieces = emitCrdYamlPieces(crd);
      return plannedFileWithBytes(`config/crd/bases/${crd.fileName}`, joinYamlPieces(pieces), encodeYamlPieces(pieces));
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (roles.length > 0) files.push({ path: 'config/rbac/role.yaml', content: emitRoleYaml(roles) });
  if (webhooks.configurations.length > 0) {
    files.push({ path: 'config/webhook/manifests.yaml', content: emitWebhookManifestsYaml(webhooks.configurations) });
  }
  return { root, command: 'manifests', files, diagnostics, warnings, check };
}

function parseMaxDescLen(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return Number(value);
}

export function register(program: Command): void {
  program
    .command('manifests')
    .description('write CRDs (config/crd/bases), the manager role (config/rbac/role.yaml) and webhook configurations (config/webhook/manifests.yaml)')
    .option('--root <dir>', 'project root', '.')
    .option('--paths <paths...>', 'folders with the API types (kubebuilder style, e.g. api/...)')
    .option('--controller-paths <paths...>', 'folders with +kubebuilder:rbac and +kubebuilder:webhook markers (default internal/...)')
    .option('--max-desc-len <n>', "truncate descriptions to n characters (controller-gen's crd:maxDescLen; 0 drops them)", parseMaxDescLen)
    .option('--allow-dangerous-types', 'allow float32/float64 fields, as controller-gen allowDangerousTypes does')
    .option('--generate-embedded-object-meta', "keep name, namespace, labels, annotations and finalizers of embedded ObjectMeta (e.g. a Job template's metadata), as controller-gen's crd:generateEmbeddedObjectMeta")
    .option('--check', 'write nothing; exit 1 when a generated file is stale or missing')
    .option('--strict-markers', 'make the warnings about markers controller-gen ignores (unknown names, stray text) errors')
    .option('--compat <git ref>', 'write nothing; compare the CRDs with those of the API types at the git ref, list breaking and compatible changes, exit 1 on a breaking one not acknowledged in api-compat.yaml')
    .action(
      async (flags: {
        root: string;
        paths?: string[];
        controllerPaths?: string[];
        maxDescLen?: number;
        allowDangerousTypes?: boolean;
        generateEmbeddedObjectMeta?: boolean;
        check?: boolean;
        strictMarkers?: boolean;
        compat?: string;
      }) => {
        if (flags.compat !== undefined) {
          const { runApiCompat } = await import('./api-compat.js');
          process.exitCode = await runApiCompat({ ...flags, ref: flags.compat });
          return;
        }
        process.exitCode = await runGeneratorCommand('manifests', flags.root, () => planManifests({ ...flags }));
      },
    );
}
