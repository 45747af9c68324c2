// jest's `runtime` (jest.config.js): jest-runtime itself, with node:vm's SourceTextModule and compileFunction
// replaced in this worker process by the ones of scripts/jest-code-cache/code-cache.cjs, so a module the
// worker has compiled once starts from compiled code in every later test file. Loaded by jest-runner in each
// worker (and in the main process with --runInBand) before the first test file; installs once per process.
// KUBEFORGE_JEST_CODE_CACHE=0 leaves node:vm alone (for comparing).
'use strict';
const vm = require('node:vm');
const { createCodeCache } = require('./code-cache.cjs');

const installed = Symbol.for('kubeforge.jestCodeCache');
if (process.env.KUBEFORGE_JEST_CODE_CACHE !== '0' && vm[installed] === undefined && typeof vm.SourceTextModule === 'function') {
  const original = { SourceTextModule: vm.SourceTextModule, compileFunction: vm.compileFunction, Script: vm.Script };
  const cache = createCodeCache(original);
  vm.SourceTextModule = cache.SourceTextModule;
  vm.compileFunction = cache.compileFunction;
  // what was installed, for scripts/jest-code-cache's test and for measuring
  Object.defineProperty(vm, installed, { value: { stats: cache.stats, original } });
}

module.exports = require('jest-runtime');
