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
 * `furiko run <jobconfig>`: an ad-hoc Job as Furiko's CLI makes it — `spec.configName` (the webhook
 * expands the JobConfig's template), `spec.type: Adhoc`, `optionValues` as compact JSON with sorted keys,
 * and a start policy from `--at`/`--after` (which imply `Enqueue`), `--enqueue` or `--concurrency-policy`.
 * Option values come from `--option name=value` and `-O '<json>'`; on a terminal every option not given
 * is prompted for (`--use-default-options` skips those with a usable default); without one, the options
 * not given take their defaults and a required option without a usable default is refused by name.
 */
import type { Job } from '../../api/v1alpha1/job_types.js';
import type { ConcurrencyPolicy, JobConfig, Option } from '../../api/v1alpha1/jobconfig_types.js';
import { evaluateOption } from '../../internal/options/evaluate.js';
import { parseRFC3339, TimeParseError } from '../../internal/options/rfc3339.js';
import { type FurikoClient, GROUP, VERSION } from './kube-client.js';
import { type OptionValue, optionLabel, promptOption, type PromptStreams } from './option-prompts.js';
import { parseGoDuration } from './time-format.js';

const CONCURRENCY_POLICIES: readonly ConcurrencyPolicy[] = ['Allow', 'Forbid', 'Enqueue'];

export interface RunFlags {
  option: string[];
  optionValues?: string;
  name?: string;
  generateName?: string;
  at?: string;
  after?: string;
  concurrencyPolicy?: string;
  enqueue?: boolean;
  interactive: boolean;
  useDefaultOptions?: boolean;
}

export interface RunContext {
  client: FurikoClient;
  /** Prompt streams when stdin is a terminal (and --no-interactive was not given); undefined otherwise. */
  prompts?: PromptStreams;
  now: Date;
  out: (text: string) => void;
}

/** The start policy of the flags, or undefined when the JobConfig's applies. Throws naming the flag. */
export function startPolicyOf(flags: RunFlags, now: Date): Job['spec']['startPolicy'] | undefined {
  let policy = flags.concurrencyPolicy as ConcurrencyPolicy | undefined;
  if (policy !== undefined && !CONCURRENCY_POLICIES.includes(policy)) {
    throw new Error(`invalid value for --concurrency-policy, valid values: [${CONCURRENCY_POLICIES.join(' ')}]`);
  }
  if (flags.enqueue) {
    if (policy) throw new Error('cannot specify both --enqueue and --concurrency-policy together');
    policy = 'Enqueue';
  }
  let startAfter: string | undefined;
  if (flags.at !== undefined) {
    try {
      parseRFC3339(flags.at);
    } catch (err) {
      if (err instanceof TimeParseError)
        throw new Error(`invalid value for --at: cannot parse ${flags.at} as RFC3339 timestamp: ${err.message}`, { cause: err });
      throw err;
    }
    startAfter = new Date(Date.parse(flags.at)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  if (flags.after !== undefined) {
    if (startAfter) throw new Error('cannot specify both --after and --at together');
    const ms = parseGoDuration(flags.after);
    if (ms === undefined) throw new Error(`invalid value for --after: cannot parse ${flags.after} as duration`);
    startAfter = new Date(now.getTime() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  if (startAfter && !policy) policy = 'Enqueue';
  if (!policy && !startAfter) return undefined;
  return { concurrencyPolicy: policy!, ...(startAfter ? { startAfter } : {}) };
}

/** The value of `--option name=value` for the option's type: Bool `true`/`false`, Multi comma-separated. */
function optionFlagValue(option: Option, raw: string, flag: string): OptionValue {
  if (option.type === 'Bool') {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw new Error(`invalid value for --option ${flag}: option "${option.name}" is a Bool, expected true or false`);
  }
  if (option.type === 'Multi')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

/** The values given on the command line: `-O` JSON first, then each `--option name=value` over it. */
export function givenOptionValues(flags: RunFlags, jobConfig: JobConfig): Map<string, unknown> {
  const options = jobConfig.spec.option?.options ?? [];
  const given = new Map<string, unknown>();
  if (flags.optionValues) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(flags.optionValues);
    } catch (err) {
      throw new Error(`invalid value for --option-values: cannot unmarshal as JSON: ${(err as Error).message}`, { cause: err });
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('invalid value for --option-values: expected a JSON object of option values');
    for (const [name, value] of Object.entries(parsed)) given.set(name, value);
  }
  for (const flag of flags.option) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new Error(`invalid value for --option: "${flag}", expected <name>=<value>`);
    const name = flag.slice(0, eq);
    const option = options.find((o) => o.name === name);
    if (!option) {
      const known = options.map((o) => o.name);
      throw new Error(
        `invalid value for --option ${flag}: job config ${keyOf(jobConfig)} has no option "${name}" (${known.length ? `its options: ${known.join(', ')}` : 'it has no options'})`,
      );
    }
    given.set(name, optionFlagValue(option, flag.slice(eq + 1), flag));
  }
  return given;
}

/**
 * What the option gives without a value, as Furiko's `checkOptionValueHasDefault`: a usable default,
 * a Required error (it needs a value), or another error (a bad default, left for the webhook to report).
 */
function withoutValue(option: Option): 'usable' | 'required' | 'invalid' {
  const result = evaluateOption(undefined, option, `spec.optionValues[${option.name}]`);
  if (typeof result === 'string') return 'usable';
  return result.type === 'FieldValueRequired' ? 'required' : 'invalid';
}

/**
 * The `optionValues` of the new Job: the given values, then for each option not given a prompt on a
 * terminal, else its default (left to the webhook). Throws naming every required option left without a value.
 */
export async function collectOptionValues(
  jobConfig: JobConfig,
  flags: RunFlags,
  context: Pick<RunContext, 'prompts' | 'now' | 'out'>,
): Promise<Record<string, unknown>> {
  const given = givenOptionValues(flags, jobConfig);
  const values: Record<string, unknown> = Object.fromEntries(given);
  const missing: Option[] = [];
  let introduced = false;
  for (const option of jobConfig.spec.option?.options ?? []) {
    if (given.has(option.name)) continue;
    const fallback = withoutValue(option);
    if (flags.useDefaultOptions && fallback === 'usable') continue;
    if (context.prompts) {
      if (!introduced) context.out('Please input option values.\n');
      introduced = true;
      values[option.name] = await promptOption(option, context.prompts, context.now);
    } else if (fallback === 'required') {
      missing.push(option);
    }
  }
  if (missing.length > 0) {
    const names = missing.map((o) => (optionLabel(o) === o.name ? `"${o.name}"` : `"${o.name}" (${optionLabel(o)})`));
    throw new Error(
      `cannot run job config ${keyOf(jobConfig)}: required option${missing.length > 1 ? 's' : ''} ${names.join(', ')} ${missing.length > 1 ? 'have' : 'has'} no value and no default; ` +
        'give them with --option <name>=<value> (or -O \'{"<name>": …}\'), or run on a terminal to be prompted',
    );
  }
  return values;
}

/** Compact JSON with keys sorted, as Go's json.Marshal of a map. */
function sortedJson(values: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(values)
        .sort()
        .map((k) => [k, values[k]]),
    ),
  );
}

/** The Job `furiko run` creates for a JobConfig. */
export function adhocJob(jobConfig: JobConfig, flags: RunFlags, optionValues: Record<string, unknown>, now: Date): Job {
  if (flags.name && flags.generateName) throw new Error('cannot specify both --name and --generate-name together');
  const name = jobConfig.metadata!.name!;
  const startPolicy = startPolicyOf(flags, now);
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'Job',
    metadata: {
      ...(flags.name ? { name: flags.name } : { generateName: flags.generateName || `${name}-` }),
      namespace: jobConfig.metadata!.namespace,
    },
    spec: {
      configName: name,
      type: 'Adhoc',
      ...(startPolicy ? { startPolicy } : {}),
      ...(Object.keys(optionValues).length > 0 ? { optionValues: sortedJson(optionValues) } : {}),
    },
  };
}

/** `<namespace>/<name>`, as client-go's MetaNamespaceKeyFunc. */
export function keyOf(object: { metadata?: { namespace?: string; name?: string } }): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

export async function runJob(jobConfigName: string, flags: RunFlags, context: RunContext): Promise<void> {
  // Flag errors first, before any request.
  startPolicyOf(flags, context.now);
  if (flags.name && flags.generateName) throw new Error('cannot specify both --name and --generate-name together');
  let jobConfig: JobConfig;
  try {
    jobConfig = await context.client.getJobConfig(jobConfigName);
  } catch (err) {
    throw new Error(`cannot get job config: ${(err as Error).message}`, { cause: err });
  }
  const optionValues = await collectOptionValues(jobConfig, flags, context);
  let created: Job;
  try {
    created = await context.client.createJob(adhocJob(jobConfig, flags, optionValues, context.now));
  } catch (err) {
    throw new Error(`cannot create job: ${(err as Error).message}`, { cause: err });
  }
  context.out(`Job ${keyOf(created)} created\n`);
}
