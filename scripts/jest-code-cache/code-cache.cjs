// Compiled code shared between the test files of one jest worker (issue 14): jest evaluates every module
// afresh in each test file's vm context, so a worker running 150 files compiles the same modules 150 times.
// Each test file still gets its own module instances: only compiled code is shared, never state.
// - ES modules (our sources through swc): the first compile of a file also saves V8's code cache, and a later
//   compile of the same text under the same name starts from it. V8 checks only a cache's length and flags,
//   so the whole text is compared here. Node refuses to cache an evaluated module, so the cache holds the code
//   compiled before evaluation; functions compiled lazily during a test are compiled again in each file.
// - CommonJS (packages, jest's own per-file modules): compiled as a vm.Script, which V8 keeps in its
//   compilation cache by text and name, so later files get the code compiled so far, lazily compiled
//   functions included (jest's vm.compileFunction never hits that cache).
// Node 20 loses a module's or script's dynamic-import callback when it comes from either cache, so texts
// that may call import() (also through code made at run time) are compiled as jest asks. Installed in
// jest's workers by scripts/jest-code-cache/runtime.cjs.
'use strict';
const { createRequire } = require('node:module');

// jest-runtime's own lexer (it depends on es-module-lexer): strings, comments and templates told apart from code
const lexer = createRequire(require.resolve('jest-runtime'))('es-module-lexer');
lexer.initSync();

/**
 * Whether a text may call import(): yes when it makes code at run time (`Function(…)`, `eval(…)`: real-require's
 * `new Function('p', 'return import(p)')`); no without `import` followed by `(` or a comment; otherwise the
 * lexer decides (typescript.js only names import() in its messages). Yes when the lexer cannot read it.
 */
function mayImportDynamically(text) {
  if (/\b(Function|eval)\s*\(/.test(text)) return true;
  if (!/\bimport\s*(\(|\/[/*])/.test(text)) return false;
  try {
    // d >= 0: a dynamic import (-1 a static one, -2 import.meta)
    return lexer.parse(text)[0].some((found) => found.d >= 0);
  } catch {
    return true;
  }
}

/** What is known of `text` under `name` in `store` (undefined when another text, or none, was seen). */
function lookUp(store, name, text) {
  const entry = name === undefined ? undefined : store.get(name);
  return entry !== undefined && entry.text === text ? entry : undefined;
}

/**
 * `SourceTextModule` and `compileFunction` as `vm`'s, sharing compiled code; `base` supplies the originals
 * (and `Script`). `stats`: module compiles from the cache (`hits`), without it (`misses`, also texts never
 * cached) and caches V8 refused (`rejected`); `bytes` of cached module code; functions compiled as shared
 * scripts (`sharedFunctions`) and as jest asked (`plainFunctions`).
 */
function createCodeCache(base) {
  // by identifier: the text last compiled under it and V8's code for it (undefined: not to be cached)
  const modules = new Map();
  // by parameters and file name: the text last compiled, whether it calls import()
  const functions = new Map();
  const stats = { hits: 0, misses: 0, rejected: 0, bytes: 0, sharedFunctions: 0, plainFunctions: 0 };

  const remember = (name, text, data) => {
    if (name === undefined) return;
    stats.bytes += (data?.length ?? 0) - (modules.get(name)?.data?.length ?? 0);
    modules.set(name, { text, data });
  };

  class SourceTextModule extends base.SourceTextModule {
    constructor(text, options = {}) {
      const name = options.identifier;
      // a caller bringing its own cached data keeps it
      const known = options.cachedData === undefined ? lookUp(modules, name, text) : undefined;
      if (known?.data !== undefined) {
        try {
          super(text, { ...options, cachedData: known.data });
          stats.hits++;
          return;
        } catch (error) {
          if (error?.code !== 'ERR_VM_MODULE_CACHED_DATA_REJECTED') throw error;
          stats.rejected++;
          remember(name, text, undefined);
        }
      }
      super(text, options);
      if (options.cachedData !== undefined) return;
      stats.misses++;
      if (known === undefined) remember(name, text, mayImportDynamically(text) ? undefined : this.createCachedData());
    }
  }

  function compileFunction(text, params = [], options = {}) {
    const { filename, parsingContext, importModuleDynamically: _callback, ...rest } = options;
    // only what jest passes: anything else (cached data, offsets, context extensions) as asked
    if (filename === undefined || Object.keys(rest).length > 0) return base.compileFunction(text, params, options);
    const key = `${params.join(',')}\0${filename}`;
    let known = lookUp(functions, key, text);
    if (known === undefined) {
      known = { text, dynamic: mayImportDynamically(text) };
      functions.set(key, known);
    }
    if (known.dynamic) {
      stats.plainFunctions++;
      return base.compileFunction(text, params, options);
    }
    // the wrapper on a line of its own (lineOffset -1): the text keeps its lines and columns in stack traces
    const script = new base.Script(`(function (${params.join(', ')}) {\n${text}\n})`, { filename, lineOffset: -1 });
    stats.sharedFunctions++;
    return parsingContext === undefined ? script.runInThisContext() : script.runInContext(parsingContext);
  }

  return { SourceTextModule, compileFunction, stats };
}

module.exports = { createCodeCache, mayImportDynamically };
