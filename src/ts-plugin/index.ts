/**
 * kubeforge's TypeScript language-service plugin (markers in the editor). tsserver loads it through the
 * CommonJS entry ts-plugin/index.js at the package root, which calls the factory exported here.
 */
export { kubeforgeTsPlugin, KUBEFORGE_DIAGNOSTIC_CODE } from './plugin.js';
export { markerCompletions, type MarkerCompletion, type MarkerCompletions } from './marker-completions.js';
export { markerHover, type MarkerHover } from './marker-hover.js';
export { apiDiagnostics, controllerDiagnostics } from './marker-diagnostics.js';
export { suggestedFix, type MarkerFix } from './marker-fixes.js';
