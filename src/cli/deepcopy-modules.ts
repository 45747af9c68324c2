/**
 * The parts `kubeforge generate` runs — the reader, the deep-copy and the apply-configuration generators — without the CRD, RBAC and
 * webhook generators `manifests` needs (about 30 ms of module loading that `generate` would not use).
 */
export { loadApiProject } from '../reader/index.js';
export { planDeepCopyFiles } from '../generate/deepcopy/index.js';
export { planApplyConfigFiles } from '../generate/applyconfig/index.js';
