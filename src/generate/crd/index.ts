/**
 * The CRD generator's public surface: `buildCrds(model, options)` → CRD documents + diagnostics,
 * `emitCrdYaml(crd)` → file text, and the structural-schema check.
 */
export { buildCrds, type BuildCrdsOptions, type BuildCrdsResult, type CrdVersion, type CustomResourceDefinition, type GeneratedCrd } from './build.js';
export { emitCrdYaml, emitCrdYamlPieces } from './emit.js';
export { checkCrd, checkStructuralSchema, type StructuralProblem } from './structural.js';
export { pluralize } from './pluralize.js';
