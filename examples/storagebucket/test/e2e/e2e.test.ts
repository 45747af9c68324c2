/*
Copyright 2026 The storagebucket Authors.

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
 * cluster, with the CRDs from config/crd/bases installed, serving metrics as config/default deploys it
 * (HTTPS, only to identities bound to the metrics-reader ClusterRole), and probing the sample's bucket in the
 * s3rver it starts without --s3-endpoint. Run with `make test-e2e` after `make manifests`.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { setupControllers } from '../../internal/controller/index.js';
import { StorageBucketKind } from '../../api/v1alpha1/storagebucket_types.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const sample = fileURLToPath(new URL('../../config/samples/storage_v1alpha1_storagebucket.yaml', import.meta.url));
const metricsReaderRole = fileURLToPath(new URL('../../config/rbac/metrics_reader_role.yaml', import.meta.url));
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
    env = await startTestEnv({
      crdPaths: existsSync(crdFolder) ? [crdFolder] : [],
      // What --metrics-bind-address=:8443 with the default --metrics-secure does, on a free local port.
      manager: { metrics: { bindAddress: '127.0.0.1:0', secureServing: true } },
    });
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

  it('the sample is probed in the s3rver setupControllers started (no --s3-endpoint): its bucket is not there yet', async () => {
    const applied = await env.kubectl(['apply', '-f', sample]);
    expect({ code: applied.code, stdout: applied.stdout }).toEqual({ code: 0, stdout: 'storagebucket.storage.example.com/storagebucket-sample created\n' });
    await env.settle();
    const bucket = await env.client.get(StorageBucketKind, { namespace: 'default', name: 'storagebucket-sample' });
    expect(bucket.status?.available).toBe(false);
    const condition = bucket.status?.conditions?.find((c) => c.type === 'Available');
    expect([condition?.status, condition?.reason]).toEqual(['False', 'BucketNotFound']);
    expect(condition?.message).toMatch(/^bucket storagebucket-sample does not exist at http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves metrics over HTTPS to identities bound to metrics-reader, and to no one else', async () => {
    expect((await env.kubectl(['apply', '-f', metricsReaderRole])).code).toBe(0);
    expect((await env.kubectl(['create', 'clusterrolebinding', 'metrics-scraper', '--clusterrole=metrics-reader', '--user=scraper'])).code).toBe(0);
    const url = env.manager.metricsUrl()!;
    const reader = await scrape(url, tokenFor(env, 'scraper'));
    expect(reader.status).toBe(200);
    expect(reader.body).toContain('controller_runtime_reconcile_total');
    expect((await scrape(url, tokenFor(env, 'someone-else'))).status).toBe(403);
    expect((await scrape(url)).status).toBe(401);
  });
});

/** A bearer token for `user`, from the kubeconfig the local cluster writes for it. */
function tokenFor(env: TestEnv, user: string): string {
  const file = env.cluster.writeKubeconfig(join(mkdtempSync(join(tmpdir(), 'e2e-')), 'kubeconfig'), { user });
  return (parse(readFileSync(file, 'utf8')) as { users: Array<{ user: { token: string } }> }).users[0]!.user.token;
}

/** GET with an optional bearer token; the metrics server's certificate is self-signed unless you give it one. */
function scrape(url: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { rejectUnauthorized: false, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
