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
 * `make run-local`: kubeforge's local Kubernetes 1.32 cluster and this project's manager in one process
 * (kubeforge/testing's `runLocal`: the CRDs of config/crd/bases installed, the webhooks of
 * config/webhook/manifests.yaml registered, `export KUBECONFIG=…` printed; Ctrl-C stops both). Takes the
 * manager's flags, `--fresh` (start the cluster empty) and `--attach=<kubeconfig>` (only the manager, against
 * a running local cluster, as `make dev` does). Register here what cmd/main.ts registers.
 */
import { runLocal } from 'kubeforge/testing';
import { setupControllers } from '../internal/controller/index.js';
import { setupWebhooks } from '../internal/webhook/index.js';
import { furikoBootstrap } from '../internal/furiko/startup.js';
// +kubebuilder:scaffold:imports

void runLocal({
  leaderElectionId: 'jobconfig-leader.furiko.io',
  async setup(mgr) {
    // Furiko, as cmd/main.ts: the bootstrap file of --config, as runLocal's parseManagerFlags read it; its dynamic ConfigMap is watched.
    const furiko = furikoBootstrap();
    furiko.watchDynamicConfig(mgr);
    await setupControllers(mgr);
    furiko.configureControllers(mgr);
    if (process.env.ENABLE_WEBHOOKS !== 'false') setupWebhooks(mgr);
    // +kubebuilder:scaffold:webhooks
  },
});
