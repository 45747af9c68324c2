// The AsyncLocalStorage jest-circus keeps its "which test is running" in, replaced for jest-circus alone by a
// plain current value (issue 14). jest-circus 30 runs every test and hook inside AsyncLocalStorage.run(); on
// Node 20 that turns on V8's promise hooks for the whole worker, so every promise a test creates (the local
// cluster creates many) goes through async_hooks' init hook: 6 to 10 % of the in-process CPU of the cluster
// suites (`_propagate`, `promiseInitHook`, `trackPromise` in a --cpu-prof of e2e/cluster). Node 22's
// AsyncContextFrame would make that cheap; Node 20 has no such option, and no library replaces it.
//
// The test files of this repository run their tests one after another (no test.concurrent, checked by
// test-context-storage.test.ts), so "the test that is running" is one value: run() sets it for the callback
// and its promise, and puts the previous value back when that settles. What differs from an
// AsyncLocalStorage: a callback a test left running (a timer firing after the test ended) sees the test that
// runs then, not its own — so an error it throws fails the running test (as jest 29 did) instead of being
// held for the finished one. Errors are still reported; they can land on a later test. Test code itself
// still gets node's own async_hooks: only the require of jest-circus's bundle is answered with this.
// KUBEFORGE_JEST_CONTEXT_STORAGE=0 leaves jest-circus on the real AsyncLocalStorage (for comparing).
'use strict';
const asyncHooks = require('node:async_hooks');

/** One current store, set for the length of run()'s callback (and of the promise it returns). */
class CurrentValueStorage {
  #store = undefined;

  getStore() {
    return this.#store;
  }

  run(store, callback, ...args) {
    const previous = this.#store;
    this.#store = store;
    let result;
    try {
      result = callback(...args);
    } catch (error) {
      this.#store = previous;
      throw error;
    }
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      const restore = () => {
        this.#store = previous;
      };
      return Promise.resolve(result).finally(restore);
    }
    this.#store = previous;
    return result;
  }

  enterWith(store) {
    this.#store = store;
  }

  exit(callback, ...args) {
    return this.run(undefined, callback, ...args);
  }

  disable() {
    this.#store = undefined;
  }
}

/** node:async_hooks as jest-circus's bundle gets it: the same module, its AsyncLocalStorage the class above. */
const asyncHooksForJestCircus = Object.freeze({ ...asyncHooks, AsyncLocalStorage: CurrentValueStorage });

/** Whether `from` (a requiring file) is jest-circus's own build. */
function isJestCircus(from) {
  return typeof from === 'string' && /[\\/]node_modules[\\/]jest-circus[\\/]build[\\/]/.test(from);
}

module.exports = { CurrentValueStorage, asyncHooksForJestCircus, isJestCircus };
