/**
 * kubeforge/testing — `startTestEnv()` (a local cluster and a manager on one virtual clock, with settle)
 * and `ManualClock` for unit tests that need no cluster.
 */
export { startTestEnv, type TestEnv, type TestEnvOptions, type KubectlResult, type LocalClusterHandle } from './test-env.js';
export { settle, type SettleTarget, type SettleLimits } from './settle.js';
export { ManualClock, flushAsyncWork } from './manual-clock.js';
