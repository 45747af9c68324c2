/*
Copyright 2026 The eventjob Authors.

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
 * End-to-end skeleton: the manager with every controller of this project against kubeforge's local
 * cluster, with the CRDs from config/crd/bases installed. Run with `make test-e2e` after `make manifests`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { setupControllers } from '../../internal/controller/index.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
/** config/crd/bases/<group>_<plural>.yaml → the CRD's name, <plural>.<group>. */
const crdNames = existsSync(crdFolder)
  ? readdirSync(crdFolder)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.replace(/\.yaml$/, '').split('_'))
      .map(([group, plural]) => `${plural}.${group}`)
  : [];

describe('manager', () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await startTestEnv({ crdPaths: existsSync(crdFolder) ? [crdFolder] : [] });
    await setupControllers(env.manager);
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('runs against the local cluster with every CRD installed', async () => {
    const crds = await env.kubectl(['get', 'customresourcedefinitions', '-o', 'name']);
    expect(crds.code).toBe(0);
    for (const name of crdNames) expect(crds.stdout).toContain(`customresourcedefinition.apiextensions.k8s.io/${name}`);
  });

  it('kubectl apply of the samples: each completed run of the built-in CronJob hello starts one EventJob Job', async () => {
    for (const file of ['cronjob.yaml', 'batch_v1_eventjob.yaml']) {
      const applied = await env.kubectl(['apply', '-n', 'default', '-f', fileURLToPath(new URL(`../../config/samples/${file}`, import.meta.url))]);
      expect(applied.stderr).toBe('');
    }
    await env.advanceTo(new Date(env.cluster.clock.now() + 60_000));
    await env.advanceTo(new Date(env.cluster.clock.now() + 60_000));

    const jobs = await env.kubectl(['get', 'jobs', '-n', 'default', '-o', 'name']);
    const names = jobs.stdout.trim().split('\n');
    expect(names.filter((n) => /^job\.batch\/hello-\d+$/.test(n)).length).toBeGreaterThanOrEqual(1);
    expect(names.filter((n) => /^job\.batch\/eventjob-sample-[a-z0-9]{5}$/.test(n)).length).toBeGreaterThanOrEqual(1);
  });
});
