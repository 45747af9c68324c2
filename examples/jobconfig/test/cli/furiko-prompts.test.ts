/**
 * The `furiko run` prompts with injected streams (the real terminal is furiko-cli.test.ts): each option
 * type's prompt, defaults on an empty reply, invalid replies refused and asked again; which options are
 * prompted for, and the refusal of required options without a value when there is no terminal.
 */
import { PassThrough } from 'node:stream';
import type { JobConfig, Option } from '../../api/v1alpha1/jobconfig_types.js';
import { LineReader, promptOption, type OptionValue } from '../../cmd/furiko/option-prompts.js';
import { collectOptionValues, type RunFlags } from '../../cmd/furiko/run-command.js';

const NOW = new Date('2026-11-27T10:00:00Z');

/** Answers `replies` (one per line) to the prompt of `option`; returns the value and what the prompt showed. */
async function answer(option: Option, replies: string[]): Promise<{ value: OptionValue; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  input.end(replies.map((r) => `${r}\n`).join(''));
  const value = await promptOption(option, { reader: new LineReader(input), output }, NOW);
  return { value, shown };
}

describe('the option prompts of furiko run, one per type', () => {
  it('String: the default on an empty reply; a required one without default asks again ("Value is required")', async () => {
    expect(await answer({ type: 'String', name: 'user', label: 'Username', string: { default: 'Example User' } }, [''])).toEqual({
      value: 'Example User',
      shown: '? Username (Example User): ',
    });
    const required = await answer({ type: 'String', name: 'to', required: true }, ['', 'ops']);
    expect(required).toEqual({ value: 'ops', shown: '? to: X Sorry, your reply was invalid: Value is required\n? to: ' });
  });

  it('Bool: (Y/n) or (y/N) after its default; yes/no in any case; anything else asks again', async () => {
    expect(await answer({ type: 'Bool', name: 'b', bool: { default: true } }, [''])).toEqual({ value: true, shown: '? b (Y/n): ' });
    const asked = await answer({ type: 'Bool', name: 'b', bool: { default: false } }, ['sure', 'YES']);
    expect(asked).toEqual({ value: true, shown: '? b (y/N): X Sorry, your reply was invalid: "sure" is not a valid answer, please try again.\n? b (y/N): ' });
    expect((await answer({ type: 'Bool', name: 'b', bool: { default: true } }, ['n'])).value).toBe(false);
  });

  it('Select: the values numbered, the default marked; a number or a value; others refused unless allowCustom', async () => {
    const option: Option = { type: 'Select', name: 'tag', label: 'Image Tag', select: { default: 'latest', values: ['latest', '3.15'] } };
    expect(await answer(option, [''])).toEqual({
      value: 'latest',
      shown: '? Image Tag:\n> 1) latest\n  2) 3.15\n  Answer with a number or a value (latest): ',
    });
    const refused = await answer(option, ['3', '2']);
    expect(refused.value).toBe('3.15');
    expect(refused.shown).toContain('X Sorry, your reply was invalid: "3" is not one of the 2 values\n');
    expect((await answer({ ...option, select: { ...option.select!, allowCustom: true } }, ['edge'])).value).toBe('edge');
  });

  it('Multi: several numbers or values, comma-separated; the defaults on an empty reply; a required one needs one', async () => {
    const option: Option = { type: 'Multi', name: 'ch', required: true, multi: { values: ['email', 'sms', 'slack'], delimiter: ',' } };
    const asked = await answer(option, ['', 'slack, 1, slack']);
    expect(asked.value).toEqual(['slack', 'email']);
    expect(asked.shown).toBe(
      '? ch:\n  1) email\n  2) sms\n  3) slack\n  Answer with numbers or values, comma-separated: X Sorry, your reply was invalid: at least one value must be selected\n  Answer with numbers or values, comma-separated: ',
    );
    expect((await answer({ ...option, multi: { ...option.multi!, default: ['sms'] } }, [''])).value).toEqual(['sms']);
  });

  it("Date: an RFC 3339 time (Go's parse error otherwise); empty when not required", async () => {
    const option: Option = { type: 'Date', name: 'since', label: 'Since', required: true };
    const asked = await answer(option, ['2026-13-01T00:00:00Z', '2026-11-01T00:00:00+08:00']);
    expect(asked.value).toBe('2026-11-01T00:00:00+08:00');
    expect(asked.shown).toBe(
      '? Since (RFC3339, e.g. 2026-11-27T10:00:00Z): X Sorry, your reply was invalid: parsing time "2026-13-01T00:00:00Z": month out of range\n? Since (RFC3339, e.g. 2026-11-27T10:00:00Z): ',
    );
    expect((await answer({ ...option, required: false }, [''])).value).toBe('');
  });

  it('an input that ends before the reply is an error', async () => {
    await expect(answer({ type: 'String', name: 's' }, [])).rejects.toThrow('prompt error: EOF');
  });
});

describe('which options furiko run asks for', () => {
  const jobConfig: JobConfig = {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'JobConfig',
    metadata: { name: 'report', namespace: 'team' },
    spec: {
      concurrency: { policy: 'Allow' },
      template: { spec: { taskTemplate: {} } },
      option: {
        options: [
          { type: 'String', name: 'who', required: true, string: { default: 'ops' } },
          { type: 'Select', name: 'region', required: true, select: { values: ['us', 'eu'] } },
          { type: 'Bool', name: 'dry', bool: { default: false, format: 'TrueFalse' } },
        ],
      },
    },
  };
  const flags = (extra: Partial<RunFlags> = {}): RunFlags => ({ option: [], interactive: true, ...extra });

  function terminal(replies: string[]) {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    input.end(replies.map((r) => `${r}\n`).join(''));
    return { prompts: { reader: new LineReader(input), output }, shown: () => shown };
  }

  it('on a terminal: every option not given, after "Please input option values."', async () => {
    const tty = terminal(['', '2', 'y']);
    const printed: string[] = [];
    const values = await collectOptionValues(jobConfig, flags(), { prompts: tty.prompts, now: NOW, out: (t) => printed.push(t) });
    expect(values).toEqual({ who: 'ops', region: 'eu', dry: true });
    expect(printed).toEqual(['Please input option values.\n']);
    expect(tty.shown()).toMatch(/^\? who \(ops\): \? region:\n/);
  });

  it('--use-default-options on a terminal asks only for options without a usable default; given ones are never asked', async () => {
    const tty = terminal(['us']);
    const values = await collectOptionValues(jobConfig, flags({ useDefaultOptions: true, option: ['dry=true'] }), {
      prompts: tty.prompts,
      now: NOW,
      out: () => undefined,
    });
    expect(values).toEqual({ dry: true, region: 'us' });
    expect(tty.shown()).toBe('? region:\n  1) us\n  2) eu\n  Answer with a number or a value: ');
  });

  it('without a terminal: options not given keep their defaults (left to the webhook); a required one without default is refused by name', async () => {
    await expect(collectOptionValues(jobConfig, flags(), { now: NOW, out: () => undefined })).rejects.toThrow(
      'cannot run job config team/report: required option "region" has no value and no default; give them with --option <name>=<value>',
    );
    expect(await collectOptionValues(jobConfig, flags({ option: ['region=us'] }), { now: NOW, out: () => undefined })).toEqual({ region: 'us' });
    // A default that does not evaluate (a Bool without its format) is not a missing value: the webhook reports it.
    const unformatted: JobConfig = {
      ...jobConfig,
      spec: { ...jobConfig.spec, option: { options: [{ type: 'Bool', name: 'dry', bool: { default: false } }] } },
    };
    expect(await collectOptionValues(unformatted, flags(), { now: NOW, out: () => undefined })).toEqual({});
  });

  it('--option names an option of the JobConfig, a Bool takes true or false, -O is JSON; errors name the flag', async () => {
    const none = { now: NOW, out: () => undefined };
    await expect(collectOptionValues(jobConfig, flags({ option: ['regoin=us'] }), none)).rejects.toThrow(
      'invalid value for --option regoin=us: job config team/report has no option "regoin" (its options: who, region, dry)',
    );
    await expect(collectOptionValues(jobConfig, flags({ option: ['dry=yes', 'region=us'] }), none)).rejects.toThrow(
      'invalid value for --option dry=yes: option "dry" is a Bool, expected true or false',
    );
    await expect(collectOptionValues(jobConfig, flags({ option: ['region'] }), none)).rejects.toThrow(
      'invalid value for --option: "region", expected <name>=<value>',
    );
    await expect(collectOptionValues(jobConfig, flags({ optionValues: '{region: us}' }), none)).rejects.toThrow(
      /^invalid value for --option-values: cannot unmarshal as JSON: /,
    );
    expect(await collectOptionValues(jobConfig, flags({ optionValues: '{"region":"us","who":"a"}', option: ['who=b'] }), none)).toEqual({
      region: 'us',
      who: 'b',
    });
  });
});
