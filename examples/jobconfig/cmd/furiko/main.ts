#!/usr/bin/env node
/*
Copyright 2026 The jobconfig Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The `furiko` CLI's executable: `kubectl-furiko` on the PATH makes it `kubectl furiko …` (kubectl's
 * plugin mechanism: kubectl runs it with the same terminal, environment and arguments); it runs
 * standalone too (`node dist/cmd/furiko/main.js …`).
 */
import { basename } from 'node:path';
import { runFurikoCli } from './cli.js';

const invokedAs = basename(process.argv[1] ?? '');
const code = await runFurikoCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: Boolean(process.stdin.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  env: process.env,
  name: invokedAs.startsWith('kubectl-') ? 'kubectl furiko' : 'furiko',
});
process.exit(code);
