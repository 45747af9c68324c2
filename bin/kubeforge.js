#!/usr/bin/env node
// The kubeforge command: runs the compiled CLI (built by `npm install`/`npm run build` into dist/).
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
