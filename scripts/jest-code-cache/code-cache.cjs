// V8's code cache for the modules jest compiles, kept in memory for one worker process (issue 14): jest
// evaluates every module afresh in each test file's vm context, so a worker running 150 files compiles the
// same local-cluster modules 150 times. Here the first compile of a file also saves V8's code for it, and a
// later compile of the same text under the same name starts from that code. Each test file still gets its
// own module instances (only compiled code is shared, never state), and any other text is compiled afresh:
// V8 checks only a cache's length and flags, so the whole text is compared here. Only code compiled before
// evaluation is cached (Node refuses to cache an evaluated module), so functions compiled lazily during a
// test are compiled again in each file. Installed in jest's workers by scripts/jest-code-cache/runtime.cjs.
'use strict';

/**
 * Whether a text may call `import()`. Node 20 loses a module's or function's dynamic-import callback when it
 * is compiled from cached code ("A dynamic import callback was not specified"), so such texts are always
 * compiled afresh. Errs towards yes: `import` followed by `(` or a comment, also in strings and comments.
 */
const mayImportDynamically = (text) => /\bimport\s*(\(|\/[/*])/.test(text);

/**
 * `SourceTextModule` and `compileFunction` as `vm`'s, with the code cache; `base` supplies the originals.
 * `stats` counts compiles from the cache (`hits`), without it (`misses`, including texts never cached) and
 * caches V8 refused (`rejected`); `bytes` is the size of the cached code.
 */
function createCodeCache(base) {
  // by name: the text last compiled under it and V8's code for it (undefined: not to be cached)
  const modules = new Map();
  const functions = new Map();
  const stats = { hits: 0, misses: 0, rejected: 0, bytes: 0 };

  /** What is known of `text` under `name`: { data } (data undefined: compile it afresh), or undefined. */
  const lookUp = (store, name, text) => {
    const entry = name === undefined ? undefined : store.get(name);
    return entry !== undefined && entry.text === text ? entry : undefined;
  };
  const remember = (store, name, text, data) => {
    if (name === undefined) return;
    const previous = store.get(name);
    stats.bytes += (data?.length ?? 0) - (previous?.data?.length ?? 0);
    store.set(name, { text, data });
  };
  const forget = (store, name) => {
    stats.rejected++;
    stats.bytes -= store.get(name)?.data?.length ?? 0;
    store.delete(name);
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
          forget(modules, name);
        }
      }
      super(text, options);
      if (options.cachedData !== undefined) return;
      stats.misses++;
      if (known === undefined) remember(modules, name, text, mayImportDynamically(text) ? undefined : this.createCachedData());
    }
  }

  function compileFunction(text, params = [], options = {}) {
    if (options.cachedData !== undefined || options.produceCachedData) return base.compileFunction(text, params, options);
    const name = options.filename;
    // the same text with other parameter names is another function
    const key = name === undefined ? undefined : `${params.join(',')}\0${name}`;
    const known = lookUp(functions, key, text);
    if (known?.data !== undefined) {
      const compiled = base.compileFunction(text, params, { ...options, cachedData: known.data });
      if (!compiled.cachedDataRejected) {
        stats.hits++;
        delete compiled.cachedDataRejected;
        return compiled;
      }
      forget(functions, key);
    }
    stats.misses++;
    if (known !== undefined) return base.compileFunction(text, params, options);
    if (mayImportDynamically(text)) {
      remember(functions, key, text, undefined);
      return base.compileFunction(text, params, options);
    }
    const compiled = base.compileFunction(text, params, { ...options, produceCachedData: true });
    remember(functions, key, text, compiled.cachedData);
    // the caller asked for neither: the function looks as one compiled without the cache
    delete compiled.cachedData;
    delete compiled.cachedDataProduced;
    return compiled;
  }

  return { SourceTextModule, compileFunction, stats };
}

module.exports = { createCodeCache, mayImportDynamically };
