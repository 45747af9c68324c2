// The CommonJS entry of kubeforge's TypeScript language-service plugin ("plugins": [{ "name": "kubeforge/ts-plugin" }]).
// tsserver `require`s a plugin after resolving its name as Node10 does — without package.json "exports" — so this
// file stands at the path the name points to. The plugin itself is ES modules (dist/ts-plugin, built from
// src/ts-plugin). Node >= 20.19 or 22.12 loads them with require(); an older Node (an older editor's tsserver)
// imports them asynchronously: until they are loaded TypeScript answers alone, then the plugin takes over and
// asks the editor to refresh its diagnostics. Any failure is written to tsserver's log, never thrown.
// Before the plugin is loaded, tsserver's own TypeScript (`modules.typescript`) is handed to kubeforge's reader
// (dist/reader/host-typescript.js), so the reader does not load a second compiler into tsserver.
'use strict';

const IMPLEMENTATION = '../dist/ts-plugin/index.js';
const HOST_TYPESCRIPT = '../dist/reader/host-typescript.js';

function log(info, message) {
  info.project.projectService.logger.info(`[kubeforge] ${message}`);
}

function describe(err) {
  return err && err.stack ? err.stack : String(err);
}

/** A language service that forwards to TypeScript's until `ready` gives the plugin's. */
function forwardingService(info, ready) {
  let current = info.languageService;
  ready.then(
    (service) => {
      current = service;
      info.project.refreshDiagnostics();
    },
    (err) => log(info, `plugin not loaded: ${describe(err)}`),
  );
  const proxy = Object.create(null);
  for (const key of Object.keys(info.languageService)) {
    proxy[key] = typeof info.languageService[key] === 'function' ? (...args) => current[key](...args) : info.languageService[key];
  }
  return proxy;
}

function kubeforgeTsPluginEntry(modules) {
  try {
    require(HOST_TYPESCRIPT).useHostTypeScript(modules.typescript);
    return require(IMPLEMENTATION).kubeforgeTsPlugin(modules);
  } catch (err) {
    if (err && err.code === 'ERR_REQUIRE_ESM') {
      const loading = import(HOST_TYPESCRIPT)
        .then((host) => host.useHostTypeScript(modules.typescript))
        .then(() => import(IMPLEMENTATION))
        .then((implementation) => implementation.kubeforgeTsPlugin(modules));
      return { create: (info) => forwardingService(info, loading.then((plugin) => plugin.create(info))) };
    }
    return {
      create(info) {
        log(info, `plugin not loaded: ${describe(err)}`);
        return info.languageService;
      },
    };
  }
}

module.exports = kubeforgeTsPluginEntry;
