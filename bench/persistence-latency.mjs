#!/usr/bin/env node
// Write latency of the local cluster in memory and with --data-dir (SQLite, WAL, synchronous FULL):
// the median and 95th percentile of N sequential ConfigMap creates over HTTPS, and of bare store
// commits with synchronous FULL and NORMAL. Needs the build in dist/. Usage: node bench/persistence-latency.mjs [N]
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from '../dist/cluster/index.js';
import { ObjectStore } from '../dist/cluster/store/object-store.js';
import { SqliteClusterData } from '../dist/cluster/store/sqlite-persistence.js';

const n = Number(process.argv[2] ?? 300);
const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(3)} ms, p95 ${s[Math.floor(s.length * 0.95)].toFixed(3)} ms`;
};

async function httpCreates(dataDir) {
  const cluster = await startLocalCluster({ clock: 'real', ...(dataDir ? { dataDir, fresh: true } : {}) });
  const agent = new Agent({ keepAlive: true, ca: cluster.caCertPem });
  const post = (name) =>
    new Promise((resolve, reject) => {
      const req = request(`${cluster.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', agent, headers: { authorization: `Bearer ${cluster.adminToken}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(100) } }));
    });
  for (let i = 0; i < 20; i++) await post(`warm-${i}`);
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await post(`cm-${i}`);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  agent.destroy();
  await cluster.stop();
  return ms;
}

function storeCommits(synchronous) {
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-bench-'));
  const data = synchronous ? new SqliteClusterData(dir, { synchronous }) : undefined;
  const store = new ObjectStore(data ? { persistence: data } : {});
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    store.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' }, data: { k: 'v'.repeat(100) } });
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  data?.close();
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'kubeforge-bench-'));
console.log(`${n} sequential creates each`);
console.log(`HTTPS create, in memory:            ${stats(await httpCreates(undefined))}`);
console.log(`HTTPS create, --data-dir (FULL):    ${stats(await httpCreates(dir))}`);
console.log(`store commit, in memory:            ${stats(storeCommits(undefined))}`);
console.log(`store commit, SQLite WAL FULL:      ${stats(storeCommits('FULL'))}`);
console.log(`store commit, SQLite WAL NORMAL:    ${stats(storeCommits('NORMAL'))}`);
rmSync(dir, { recursive: true, force: true });
