/**
 * kubeforge/testing — `startTestEnv()` (a local cluster and a manager on one virtual clock, with settle)
 * and `ManualClock` for unit tests that need no cluster; `registerWebhooks()` (also used by a made project's
 * `make run-local`) points the project's webhook configurations at a manager's webhook server;
 * `runLocal()` is a made project's `make run-local` (the local cluster and its manager in one process);
 * `StallingProxy` stalls and heals one client's path to the server for partition tests; `minimalObject()`
 * builds an object of a custom kind with every required field of its CRD filled (scaffolded tests use it);
 * `crdValidator()` validates objects and updates against a CRD file as the local cluster would, without a server.
 */
export { startTestEnv, type TestEnv, type TestEnvOptions, type KubectlResult, type LocalClusterHandle } from './test-env.js';
export { settle, type SettleTarget, type SettleLimits } from './settle.js';
export { ManualClock, flushAsyncWork } from './manual-clock.js';
export { registerWebhooks } from './webhook-registration.js';
export { runLocal, type RunLocalOptions } from './run-local.js';
export { StallingProxy } from './stalling-proxy.js';
export { minimalObject, type MinimalObjectOptions } from './minimal-object.js';
export { randomObjects, type RandomObjectsOptions } from './random-objects.js';
export { crdValidator, type CrdValidator, type CrdValidationResult, type CrdValidationOptions, type CrdFieldError } from './crd-validator.js';
