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
 * A real S3-compatible object store for the tests: the operator's own LocalS3Server (s3rver in a temporary
 * folder on a free port) and an S3 client to make and delete buckets behind the operator's back; and a prober
 * that counts its HeadBucket calls, to tell which manager probed.
 */
import { CreateBucketCommand, DeleteBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { S3BucketProber, type BucketProbe, type BucketProber } from '../../internal/probe/bucket_prober.js';
import { LocalS3Server } from '../../internal/probe/local_s3.js';

export interface ObjectStore {
  endpoint: string;
  createBucket(name: string): Promise<void>;
  deleteBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startObjectStore(): Promise<ObjectStore> {
  const server = new LocalS3Server();
  await server.start();
  const endpoint = server.endpoint();
  const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    endpoint,
    createBucket: async (name) => void (await s3.send(new CreateBucketCommand({ Bucket: name }))),
    deleteBucket: async (name) => void (await s3.send(new DeleteBucketCommand({ Bucket: name }))),
    stop: async () => {
      s3.destroy();
      await server.stop();
    },
  };
}

/** An S3 prober that records every bucket it was asked about. */
export class CountingProber implements BucketProber {
  readonly asked: string[] = [];
  private readonly s3: S3BucketProber;

  constructor(endpoint: string) {
    this.s3 = new S3BucketProber(endpoint);
  }

  probe(bucketName: string): Promise<BucketProbe> {
    this.asked.push(bucketName);
    return this.s3.probe(bucketName);
  }

  close(): void {
    this.s3.close();
  }
}
