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

/** The operator's flags: --probe-interval and --s3-endpoint, alone and through the manager's parser (kubeforge's parseManagerFlags). */
import { addManagerFlags, managerUsage, parseGoDuration, parseManagerFlags } from 'kubeforge/runtime';
import { storageSettings } from './flags.js';

const parseFlags = (argv: string[]) => parseManagerFlags(argv, { leaderElectionId: 'storagebucket-leader.example.com' });

describe('--probe-interval and --s3-endpoint', () => {
  test('defaults: every 30s, no endpoint (a local s3rver is started)', () => {
    const flags = parseFlags([]);
    if (flags === 'help') throw new Error('unexpected --help');
    expect(flags.values).toEqual({ 'probe-interval': '30s', 's3-endpoint': undefined });
    expect(storageSettings()).toEqual({ probeIntervalMs: 30_000 });
  });

  test("both forms, among the manager flags: parseManagerFlags returns them, and storageSettings() reads what it parsed (not process.argv)", () => {
    const flags = parseFlags(['--leader-elect', '--kubeconfig', '/tmp/kc', '--probe-interval', '1m30s', '--s3-endpoint=http://127.0.0.1:4568']);
    if (flags === 'help') throw new Error('unexpected --help');
    expect(flags.values).toEqual({ 'probe-interval': '1m30s', 's3-endpoint': 'http://127.0.0.1:4568' });
    expect([...flags.given].sort()).toEqual(['kubeconfig', 'leader-elect', 'probe-interval', 's3-endpoint']);
    expect(process.argv).not.toContain('--probe-interval');
    expect(storageSettings()).toEqual({ probeIntervalMs: 90_000, s3Endpoint: 'http://127.0.0.1:4568' });
  });

  test.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['1.5h', 5_400_000],
    ['2h45m', 9_900_000],
    ['1m0.5s', 60_500],
  ])('Go duration %s is %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  test.each([
    [['--probe-interval', 'soon'], '--probe-interval: expected a duration of at least 1ms such as 10s, 1m or 1m30s, got "soon"'],
    [['--probe-interval', '30'], '--probe-interval: expected a duration of at least 1ms such as 10s, 1m or 1m30s, got "30"'],
    [['--probe-interval=0s'], '--probe-interval: expected a duration of at least 1ms such as 10s, 1m or 1m30s, got "0s"'],
    [['--probe-interval'], '--probe-interval: expected a duration of at least 1ms such as 10s, 1m or 1m30s, got ""'],
    [['--s3-endpoint', 'localhost:4568'], '--s3-endpoint: expected an http:// or https:// URL such as http://127.0.0.1:4568, got "localhost:4568"'],
    [['--s3-endpoint=ftp://store'], '--s3-endpoint: expected an http:// or https:// URL such as http://127.0.0.1:4568, got "ftp://store"'],
  ])('%j is refused, naming the flag, and the last good values stay', (argv, message) => {
    expect(parseFlags(['--probe-interval=2m'])).not.toBe('help');
    expect(() => parseFlags(argv)).toThrow(message);
    expect(storageSettings()).toEqual({ probeIntervalMs: 120_000 });
  });

  test("the manager's parser takes them (loading ./flags.js adds them), refuses a bad one with the same message, and --help lists them", () => {
    const usage = managerUsage();
    expect(() => parseFlags(['--probe-intervall=10s'])).toThrow("Unknown option '--probe-intervall'");
    const flags = parseFlags(['--probe-interval=10s', '--s3-endpoint', 'https://s3.example.com', '--health-probe-bind-address=0']);
    expect(flags).not.toBe('help');
    expect(() => parseFlags(['--probe-interval=never'])).toThrow('--probe-interval: expected a duration of at least 1ms such as 10s, 1m or 1m30s, got "never"');
    expect(() => parseFlags(['--s3-endpoint=store'])).toThrow('--s3-endpoint: expected an http:// or https:// URL such as http://127.0.0.1:4568, got "store"');
    expect(usage).toMatch(/^ {2}--probe-interval <duration> +how often every StorageBucket's bucket is probed/m);
    expect(usage).toMatch(/^ {2}--s3-endpoint <url> +the S3-compatible object store/m);
    expect(usage).toMatch(/^ {2}--help +print this text$/m);
  });

  test('a flag the manager or the operator already declares cannot be added again', () => {
    expect(() => addManagerFlags({ options: { 'probe-interval': { type: 'string' } }, usage: '' })).toThrow('addManagerFlags: --probe-interval is already declared');
    expect(() => addManagerFlags({ options: { 'leader-elect': { type: 'boolean' } }, usage: '' })).toThrow('addManagerFlags: --leader-elect is already declared');
  });
});
