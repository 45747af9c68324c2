/**
 * The CRD generator's public surface: `buildCrds(model, options)` → CRD documents + diagnostics,
 * `emitCrdYaml(crd)` → file text, the structural-schema check, and the API server's checks of CEL rules.
 */
export { buildCrds, type BuildCrdsOptions, type BuildCrdsResult, type CrdVersion, type CustomResourceDefinition, type GeneratedCrd } from './build.js';
export { emitCrdYaml, emitCrdYamlPieces } from './emit.js';
export { celRuleDiagnostics } from './cel-check.js';
export { checkCrd, checkStructuralSchema, type StructuralProblem } from './structural.js';
export { pluralize } from './pluralize.js';
