/*
Copyright 2026 The project Authors.

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
 * Round trips of CronJob v2 through the hub v1, as controller-runtime's conversion fuzz
 * tests: random valid v1 objects → v2 → v1 come back equal, and random valid
 * v2 objects → v1 → v2 too. The objects are drawn from the CRD `make manifests`
 * wrote, with a fixed seed, so a failure shows the same object on every run.
 */
import { fileURLToPath } from 'node:url';
import { KindConversion } from 'kubeforge/runtime';
import { randomObjects } from 'kubeforge/testing';
import { CronJobHub } from '../v1/cronjob_conversion.js';
import { CronJobKind } from './cronjob_types.js';
import { CronJobV2Convertible } from './cronjob_conversion.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const SEED = 1;
const COUNT = 100;
const conversion = new KindConversion(CronJobHub.hub).spoke(CronJobV2Convertible);

describe('CronJob v2 ⇄ v1 (hub) conversion', () => {
  it('v1 → v2 → v1 gives back every random v1 object', async () => {
    const hubs = randomObjects(CronJobHub.hub, { crdPaths: [crdFolder], seed: SEED, count: COUNT });
    expect(hubs).toHaveLength(COUNT);
    for (const hub of hubs) {
      const spoke = await conversion.convert(hub, 'batch.tutorial.kubebuilder.io/v2');
      expect(spoke.apiVersion).toBe('batch.tutorial.kubebuilder.io/v2');
      expect(await conversion.convert(spoke, 'batch.tutorial.kubebuilder.io/v1')).toEqual(hub);
    }
  });

  it('v2 → v1 → v2 gives back every random v2 object', async () => {
    const spokes = randomObjects(CronJobKind, { crdPaths: [crdFolder], seed: SEED, count: COUNT });
    expect(spokes).toHaveLength(COUNT);
    for (const spoke of spokes) {
      const hub = await conversion.convert(spoke, 'batch.tutorial.kubebuilder.io/v1');
      expect(hub.apiVersion).toBe('batch.tutorial.kubebuilder.io/v1');
      expect(await conversion.convert(hub, 'batch.tutorial.kubebuilder.io/v2')).toEqual(spoke);
    }
  });
});
