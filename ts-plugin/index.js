// The CommonJS entry of kubeforge's TypeScript language-service plugin ("plugins": [{ "name": "kubeforge/ts-plugin" }]).
// tsserver `require`s a plugin after resolving its name as Node10 does — without package.json "exports" — so this
// file stands at the path the name points to. The plugin itself is ES modules (dist/ts-plugin, built from
// src/ts-plugin), loaded with Node's require(esm) (Node >= 20.19 or 22.12); on a Node without it TypeScript keeps
// working without the plugin, and the reason is written to tsserver's log.
'use strict';

function kubeforgeTsPluginEntry(modules) {
  try {
    return require('../dist/ts-plugin/index.js').kubeforgeTsPlugin(modules);
  } catch (err) {
    return {
      create(info) {
        info.project.projectService.logger.info(`[kubeforge] plugin not loaded: ${err && err.stack ? err.stack : String(err)}`);
        return info.languageService;
      },
    };
  }
}

module.exports = kubeforgeTsPluginEntry;
