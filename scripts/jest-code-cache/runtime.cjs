// jest's `runtime` (jest.config.js): jest-runtime, sharing between the test files of a worker what it would
// otherwise do again for each (issue 14). node:vm's SourceTextModule and compileFunction are replaced in this
// worker process by the ones of code-cache.cjs, so a module the worker has compiled once starts from compiled
// code in every later test file; and each test file reads source texts through source-texts.cjs. Loaded by
// jest-runner in each worker (and in the main process with --runInBand) before the first test file.
// KUBEFORGE_JEST_CODE_CACHE=0 leaves both alone (for comparing).
'use strict';
const vm = require('node:vm');
const { default: JestRuntime } = require('jest-runtime');
const { createCodeCache } = require('./code-cache.cjs');
const { createSourceTexts } = require('./source-texts.cjs');
const { asyncHooksForJestCircus, isJestCircus } = require('./test-context-storage.cjs');

const enabled = process.env.KUBEFORGE_JEST_CODE_CACHE !== '0';
const installed = Symbol.for('kubeforge.jestCodeCache');
const sourceTexts = createSourceTexts();
if (enabled && vm[installed] === undefined && typeof vm.SourceTextModule === 'function') {
  const original = { SourceTextModule: vm.SourceTextModule, compileFunction: vm.compileFunction, Script: vm.Script };
  const cache = createCodeCache(original);
  vm.SourceTextModule = cache.SourceTextModule;
  vm.compileFunction = cache.compileFunction;
  // what was installed, for scripts/jest-code-cache's test and for measuring
  Object.defineProperty(vm, installed, { value: { stats: cache.stats, original, sourceTexts: sourceTexts.stats } });
}

const plainContextStorage = process.env.KUBEFORGE_JEST_CONTEXT_STORAGE !== '0';

/**
 * jest-runtime with the worker's source texts behind each test file's map of texts, and jest-circus's test
 * context kept in a plain current value instead of an AsyncLocalStorage (test-context-storage.cjs).
 */
class Runtime extends JestRuntime {
  constructor(config, environment, resolver, transformer, cacheFS, ...rest) {
    super(config, environment, resolver, transformer, enabled ? sourceTexts.forTestFile(cacheFS) : cacheFS, ...rest);
  }

  requireInternalModule(from, to) {
    if (plainContextStorage && (to === 'node:async_hooks' || to === 'async_hooks') && isJestCircus(from)) return asyncHooksForJestCircus;
    return super.requireInternalModule(from, to);
  }
}

module.exports = Runtime;
