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
 * The operator's entry point: parses the manager flags (kubeforge's `parseManagerFlags`, kubebuilder's
 * flag set), builds the kubeforge manager (shared cache and client, leader election, health probes and
 * metrics) and registers every controller of this project. `node dist/cmd/main.js --help` lists the flags.
 */
import { Manager, managerUsage, parseManagerFlags, startFailureMessage } from 'kubeforge/runtime';
import { setupControllers } from '../internal/controller/index.js';
import { setupWebhooks } from '../internal/webhook/index.js';
import { furikoBootstrap } from '../internal/furiko/startup.js';
// +kubebuilder:scaffold:imports

async function main(): Promise<void> {
  const flags = parseManagerFlags(process.argv.slice(2), { leaderElectionId: 'jobconfig-leader.furiko.io' });
  if (flags === 'help') {
    process.stdout.write(`${managerUsage()}\n`);
    return;
  }
  // Furiko: the bootstrap file of --config, one of the manager's flags (internal/furiko/bootstrap-config.ts).
  const furiko = furikoBootstrap(flags);
  furiko.configure(flags.options);
  const mgr = new Manager(flags.options);
  furiko.watchDynamicConfig(mgr);
  await setupControllers(mgr);
  furiko.configureControllers(mgr);
  if (process.env.ENABLE_WEBHOOKS !== 'false') setupWebhooks(mgr);
  // +kubebuilder:scaffold:webhooks
  mgr.logger.info('starting manager');
  await mgr.start();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  mgr.logger.info('shutting down');
  await mgr.stop();
  mgr.close();
}

main().catch((err: unknown) => {
  // One line for a bad flag or a port another process holds ("--webhook-port 9443: port 9443 is already in use").
  process.stderr.write(`${startFailureMessage(err)}\n`);
  process.exit(1);
});
