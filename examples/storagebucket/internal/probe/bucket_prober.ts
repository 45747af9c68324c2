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
 * Asks the object store whether a bucket exists: S3's HeadBucket through @aws-sdk/client-s3, path-style
 * (as s3rver, MinIO and most S3-compatible servers want). 200 → found, 404 → not found, anything else (403,
 * a refused connection, a timeout) → the probe failed and says why.
 */
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

/** What one probe of a bucket found. */
export interface BucketProbe {
  available: boolean;
  /** The Available condition's reason. */
  reason: 'BucketFound' | 'BucketNotFound' | 'ProbeFailed';
  message: string;
}

export interface BucketProber {
  probe(bucketName: string): Promise<BucketProbe>;
}

/** s3rver's fixed credentials, used when the environment names none. */
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

// The SDK warns once per process on Node 20 that its releases after January 2027 need Node 22; its documented
// switch (aws/aws-sdk-js-v3#7983) turns that off. Set in the shell, the user's value wins.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export class S3BucketProber implements BucketProber {
  private client: S3Client | undefined;

  /** `endpoint` may be known only once the manager runs (the local s3rver's port). */
  constructor(private readonly endpoint: string | (() => string)) {}

  async probe(bucketName: string): Promise<BucketProbe> {
    try {
      await this.s3().send(new HeadBucketCommand({ Bucket: bucketName }));
      return { available: true, reason: 'BucketFound', message: `bucket ${bucketName} exists at ${this.endpointUrl()}` };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return { available: false, reason: 'BucketNotFound', message: `bucket ${bucketName} does not exist at ${this.endpointUrl()}` };
      const why = status === undefined ? (err as Error).message : `HTTP ${status} ${(err as Error).name}`;
      return { available: false, reason: 'ProbeFailed', message: `HeadBucket ${bucketName} at ${this.endpointUrl()} failed: ${why}` };
    }
  }

  close(): void {
    this.client?.destroy();
    this.client = undefined;
  }

  private endpointUrl(): string {
    return typeof this.endpoint === 'string' ? this.endpoint : this.endpoint();
  }

  private s3(): S3Client {
    this.client ??= new S3Client({
      endpoint: this.endpointUrl(),
      region: process.env.AWS_REGION ?? 'us-east-1',
      forcePathStyle: true,
      ...(process.env.AWS_ACCESS_KEY_ID ? {} : { credentials: S3RVER_CREDENTIALS }),
      // One attempt: the next tick is the retry. Bounded, so a store that hangs cannot hold a worker.
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 10_000 },
    });
    return this.client;
  }
}
