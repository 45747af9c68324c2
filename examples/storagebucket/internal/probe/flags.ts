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
 * The operator's own flags, beside the manager's: `--probe-interval` (how often every StorageBucket is probed,
 * a Go duration) and `--s3-endpoint` (the object store's URL; absent, a local s3rver is started for the run).
 * Loading this module adds them to the manager's flag parser and --help (`addManagerFlags`, as Go packages
 * register flags on flag.CommandLine), so cmd/main.ts and cmd/run-local.ts stay as scaffolded: their
 * `parseManagerFlags` checks the values (a bad one names its flag) and `storageSettings()` reads what it
 * parsed, as a Go package reads its flag variables after flag.Parse.
 */
import { addManagerFlags, parseGoDuration } from 'kubeforge/runtime';

/** Default --probe-interval. */
export const DEFAULT_PROBE_INTERVAL = '30s';

/** The flags for node's parseArgs. */
export const STORAGE_FLAG_OPTIONS = {
  'probe-interval': { type: 'string', default: DEFAULT_PROBE_INTERVAL },
  's3-endpoint': { type: 'string' },
} as const;

/** The flags' lines of --help. */
export const STORAGE_FLAGS_USAGE = `  --probe-interval <duration>         how often every StorageBucket's bucket is probed, e.g. 10s, 1m, 1m30s
                                      (default "${DEFAULT_PROBE_INTERVAL}")
  --s3-endpoint <url>                 the S3-compatible object store, e.g. http://127.0.0.1:4568 (credentials from
                                      AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, else s3rver's); absent: an s3rver
                                      in a temporary folder is started for this run and its endpoint logged`;

/** What the flags ask for. */
export interface StorageSettings {
  probeIntervalMs: number;
  /** undefined: start a local s3rver. */
  s3Endpoint?: string;
}

/** The settings from parsed flag values; an error names the flag and the value it refused. */
export function storageSettingsOf(values: { 'probe-interval'?: string; 's3-endpoint'?: string }): StorageSettings {
  const interval = values['probe-interval'] ?? DEFAULT_PROBE_INTERVAL;
  let probeIntervalMs: number | undefined;
  try {
    probeIntervalMs = parseGoDuration(interval);
  } catch {
    probeIntervalMs = undefined;
  }
  if (probeIntervalMs === undefined || probeIntervalMs < 1) {
    throw new Error(`--probe-interval: expected a duration of at least 1ms such as 10s, 1m or 1m30s, got "${interval}"`);
  }
  const endpoint = values['s3-endpoint'];
  if (endpoint === undefined) return { probeIntervalMs };
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`--s3-endpoint: expected an http:// or https:// URL such as http://127.0.0.1:4568, got "${endpoint}"`);
  }
  return { probeIntervalMs, s3Endpoint: endpoint };
}

const storageFlags = addManagerFlags({ options: STORAGE_FLAG_OPTIONS, usage: STORAGE_FLAGS_USAGE, check: (values) => void storageSettingsOf(values) });

/** The settings of the command line `parseManagerFlags` last parsed (cmd/main.ts's or cmd/run-local.ts's); the defaults before. */
export function storageSettings(): StorageSettings {
  return storageSettingsOf(storageFlags.values);
}
