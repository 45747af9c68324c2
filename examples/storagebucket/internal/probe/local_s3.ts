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
 * An s3rver (an S3-compatible server on the local disk) for runs without --s3-endpoint: `make run-local`,
 * the demo and the tests. As a manager runnable it starts with the manager on every replica (it needs no
 * leader), in a fresh temporary folder on a free port of 127.0.0.1 (the pod IP in the local cluster's pods),
 * logs its endpoint, and goes with the manager.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Manager, Runnable } from 'kubeforge/runtime';
import type S3rver from 's3rver';

export class LocalS3Server implements Runnable {
  readonly needLeaderElection = false;
  private server: S3rver | undefined;
  private directory: string | undefined;
  private url: string | undefined;

  /** http://127.0.0.1:<port> once started. */
  endpoint(): string {
    if (this.url === undefined) throw new Error('the local s3rver has not started yet');
    return this.url;
  }

  /** The folder holding the buckets (one sub-folder each). */
  folder(): string | undefined {
    return this.directory;
  }

  async start(manager?: Manager): Promise<void> {
    if (this.server) return;
    let S3rverClass: typeof S3rver;
    try {
      S3rverClass = (await import('s3rver')).default;
    } catch (err) {
      throw new Error(`--s3-endpoint: not given, and s3rver (a dev dependency, for local runs) cannot be loaded: ${(err as Error).message}`, { cause: err });
    }
    this.directory = mkdtempSync(join(tmpdir(), 'storagebucket-s3rver-'));
    this.server = new S3rverClass({ port: 0, address: '127.0.0.1', directory: this.directory, silent: true });
    // The address it really listens on: in a pod of the local cluster a loopback listen is bound to the pod IP.
    const { address, port } = await this.server.run();
    this.url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    manager?.logger.info({ endpoint: this.url, directory: this.directory }, `no --s3-endpoint: started s3rver at ${this.url}`);
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
    if (this.directory) rmSync(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }
}
