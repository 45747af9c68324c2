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
 * The prompts `furiko run` shows on a terminal, one per option type as Furiko's (survey): String and Date
 * are inputs (Date checked as RFC 3339), Bool a yes/no confirmation, Select a choice among the values (or
 * any text when `allowCustom`), Multi a choice of several. Each prompt is a line (`? <label> …`); an empty
 * answer takes the default; an invalid one is refused with survey's `X Sorry, your reply was invalid: …`
 * and asked again. Lines are read from the terminal as typed (canonical mode: the terminal echoes them).
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Option } from '../../api/v1alpha1/jobconfig_types.js';
import { parseRFC3339, TimeParseError } from '../../internal/options/rfc3339.js';

/** An option value as `optionValues` holds it: a string, a bool (Bool) or a list of strings (Multi). */
export type OptionValue = string | boolean | string[];

/** Reads answers line by line from a stream that stays open between prompts. */
export class LineReader {
  private readonly lines: AsyncIterator<string>;

  constructor(input: Readable) {
    this.lines = createInterface({ input, terminal: false, crlfDelay: Infinity })[Symbol.asyncIterator]();
  }

  /** The next line, or an error when the input ends first. */
  async next(): Promise<string> {
    const line = await this.lines.next();
    if (line.done) throw new Error('prompt error: EOF');
    return line.value;
  }
}

export interface PromptStreams {
  reader: LineReader;
  output: Writable;
}

/** Furiko's label of an option: its `label`, else its name. */
export const optionLabel = (option: Option): string => option.label || option.name;

/** survey's answer to an empty reply where one is needed. */
const VALUE_REQUIRED = 'Value is required';

/** Asks for one option's value with the prompt of its type. */
export async function promptOption(option: Option, io: PromptStreams, now: Date): Promise<OptionValue> {
  switch (option.type) {
    case 'Bool':
      return promptBool(option, io);
    case 'String':
      return ask<string>(io, `? ${optionLabel(option)}${hint(option.string?.default)}: `, (reply) => {
        const value = reply === '' ? (option.string?.default ?? '') : reply;
        return option.required && value === '' ? { error: VALUE_REQUIRED } : { value };
      });
    case 'Select':
      return promptSelect(option, io);
    case 'Multi':
      return promptMulti(option, io);
    case 'Date':
      return ask<string>(io, `? ${optionLabel(option)} (RFC3339, e.g. ${rfc3339(now)}): `, (reply) => {
        if (reply === '') return option.required ? { error: VALUE_REQUIRED } : { value: '' };
        try {
          parseRFC3339(reply);
          return { value: reply };
        } catch (err) {
          if (err instanceof TimeParseError) return { error: err.message };
          throw err;
        }
      });
  }
  throw new Error(`unhandled option type: ${String(option.type)}`);
}

type Check<T> = (reply: string) => { value: T } | { error: string };

/** Writes the question, reads a reply, and asks again until `check` accepts it. */
async function ask<T>(io: PromptStreams, question: string, check: Check<T>): Promise<T> {
  for (;;) {
    io.output.write(question);
    const result = check((await io.reader.next()).trim());
    if ('value' in result) return result.value;
    io.output.write(`X Sorry, your reply was invalid: ${result.error}\n`);
  }
}

const hint = (value: string | undefined): string => (value ? ` (${value})` : '');

function rfc3339(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function promptBool(option: Option, io: PromptStreams): Promise<boolean> {
  const fallback = option.bool?.default ?? false;
  return ask<boolean>(io, `? ${optionLabel(option)} (${fallback ? 'Y/n' : 'y/N'}): `, (reply) => {
    if (reply === '') return { value: fallback };
    if (/^y(es)?$/i.test(reply)) return { value: true };
    if (/^no?$/i.test(reply)) return { value: false };
    return { error: `"${reply}" is not a valid answer, please try again.` };
  });
}

/** The values numbered from 1, the default marked with `>`. */
function listChoices(values: string[], chosen: string[]): string {
  return values.map((value, i) => `${chosen.includes(value) ? '>' : ' '} ${i + 1}) ${value}\n`).join('');
}

/** A reply naming a value: its number in the list, or the value itself. */
function choiceOf(reply: string, values: string[]): string | undefined {
  if (/^\d+$/.test(reply) && Number(reply) >= 1 && Number(reply) <= values.length) return values[Number(reply) - 1];
  return values.includes(reply) ? reply : undefined;
}

function promptSelect(option: Option, io: PromptStreams): Promise<string> {
  const cfg = option.select ?? { values: [] };
  const values = cfg.values ?? [];
  const fallback = cfg.default ?? '';
  io.output.write(`? ${optionLabel(option)}:\n${listChoices(values, [fallback])}`);
  const question = `  Answer with a number${cfg.allowCustom ? ', a value or your own text' : ' or a value'}${hint(fallback)}: `;
  return ask<string>(io, question, (reply) => {
    if (reply === '') return option.required && fallback === '' ? { error: VALUE_REQUIRED } : { value: fallback };
    const choice = choiceOf(reply, values);
    if (choice !== undefined) return { value: choice };
    return cfg.allowCustom ? { value: reply } : { error: `"${reply}" is not one of the ${values.length} values` };
  });
}

function promptMulti(option: Option, io: PromptStreams): Promise<string[]> {
  const cfg = option.multi ?? { values: [], delimiter: '' };
  const values = cfg.values ?? [];
  const fallback = cfg.default ?? [];
  io.output.write(`? ${optionLabel(option)}:\n${listChoices(values, fallback)}`);
  return ask<string[]>(io, `  Answer with numbers or values, comma-separated${hint(fallback.join(','))}: `, (reply) => {
    if (reply === '') return option.required && fallback.length === 0 ? { error: 'at least one value must be selected' } : { value: fallback };
    const chosen: string[] = [];
    for (const part of reply
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const choice = choiceOf(part, values);
      if (choice === undefined) return { error: `"${part}" is not one of the ${values.length} values` };
      if (!chosen.includes(choice)) chosen.push(choice);
    }
    return { value: chosen };
  });
}
