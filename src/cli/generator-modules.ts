/**
 * Every part `kubeforge manifests` runs, in one module that generator-run.ts loads on first use (so
 * `kubeforge --help` and the other commands never load the TypeScript parser). `kubeforge generate` needs
 * fewer (deepcopy-modules.ts). Lazy imports go one at a time (src/reader/import-in-turn.ts): jest's ESM loader
 * can fail when several dynamic imports that share modules are in flight at once.
 */
export { loadApiProject } from '../reader/index.js';
export { buildCrds, celRuleDiagnostics, emitCrdYaml, emitCrdYamlPieces } from '../generate/crd/index.js';
export { joinYamlPieces, encodeYamlPieces } from '../generate/yaml/index.js';
export { buildRbac, emitRoleYaml, DEFAULT_ROLE_NAME } from '../generate/rbac/index.js';
export { buildWebhooks, emitWebhookManifestsYaml } from '../generate/webhook/index.js';
export { planDeepCopyFiles } from '../generate/deepcopy/index.js';

export { planApplyConfigFiles } from '../generate/applyconfig/index.js';
