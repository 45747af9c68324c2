/**
 * `x-kubernetes-validations` (CEL) rules as a 1.32 API server handles them: compiled, type-checked
 * and cost-estimated when a CRD is written (cel/rule-compiler.ts), evaluated with the Kubernetes
 * CEL libraries and runtime cost limits on every custom-resource write (cel/rule-evaluator.ts).
 * `kubeforge manifests` runs the same CRD-write checks on the CRDs it generates (celRuleFindings).
 */
export { celCompileErrors, celRuleFindings, type RuleFinding } from './cel/rule-compiler.js';
export { evaluateCelRules } from './cel/rule-evaluator.js';
export { hasCelRules } from './cel/rule-evaluator.js';
