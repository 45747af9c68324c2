// The source texts jest reads for a test file, kept for the worker's later test files (issue 14): jest starts
// each test file with an empty map of texts (its `cacheFS`) and reads every module's file again (open, read,
// decode), even when the module's transformed code is in the worker's memory already. Here a text read once
// is handed out again while its file's size, modification time and inode are those seen before the read
// (jest's in-memory transform cache trusts the modification time alone). Used by runtime.cjs.
'use strict';
const { readFileSync, statSync } = require('node:fs');

/** A file's size, modification time and inode, or undefined when it cannot be read. */
function signatureOf(filename) {
  const stat = statSync(filename, { throwIfNoEntry: false });
  return stat === undefined || !stat.isFile() ? undefined : `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

/**
 * The worker's texts: `forTestFile(cacheFS)` gives a test file's map of texts (jest's cacheFS, with what it
 * holds already) that reads through them. `stats`: texts handed out again (`reused`) and read (`read`).
 */
function createSourceTexts() {
  const texts = new Map();
  const stats = { reused: 0, read: 0 };

  /** What jest's FileCache and ScriptTransformer use: get and set of texts by file name. */
  class TestFileTexts extends Map {
    get(filename) {
      const own = super.get(filename);
      if (own !== undefined || typeof filename !== 'string') return own;
      // stat before reading: a file changed while being read is read again next time
      const signature = signatureOf(filename);
      if (signature === undefined) return undefined;
      let known = texts.get(filename);
      if (known?.signature === signature) {
        stats.reused++;
      } else {
        let text;
        try {
          text = readFileSync(filename, 'utf8');
        } catch {
          return undefined; // jest reads it and reports the error
        }
        known = { signature, text };
        texts.set(filename, known);
        stats.read++;
      }
      super.set(filename, known.text);
      return known.text;
    }
  }

  return { forTestFile: (cacheFS) => new TestFileTexts(cacheFS), stats };
}

module.exports = { createSourceTexts };
