/**
 * Evaluates a Job's `optionValues` against its JobConfig's OptionSpec into `option.<name>` substitutions
 * (reference-operators spec §4.5), with Furiko's field errors at `spec.optionValues[<name>]`.
 */
import type {
  BoolOptionConfig,
  DateOptionConfig,
  MultiOptionConfig,
  Option,
  OptionSpec,
  SelectOptionConfig,
  StringOptionConfig,
} from '../../api/v1alpha1/jobconfig_types.js';
import { aggregateMessage, invalid, notSupported, required, type FieldError } from '../validation/field-errors.js';
import { formatMoment } from './moment-format.js';
import { parseRFC3339, TimeParseError } from './rfc3339.js';
import { unmarshalYamlOrJson } from './yaml-or-json.js';

/** The field path of option values; errors name `spec.optionValues[<name>]`. */
export const OPTION_VALUES_PATH = 'spec.optionValues';

/** The substitution variable of an option: `option.<name>`. */
export const optionVariableName = (option: Pick<Option, 'name'>) => `option.${option.name}`;

/** The outcome of evaluating every option: substitutions of the valid ones, errors of the others. */
export interface OptionEvaluation {
  substitutions: Record<string, string>;
  errors: FieldError[];
}

/** Thrown when option values do not evaluate; the message is the field errors (`spec.optionValues[x]: …`). */
export class OptionValuesError extends Error {
  constructor(readonly errors: readonly FieldError[]) {
    super(aggregateMessage(errors));
    this.name = 'OptionValuesError';
  }
}

/** The name Go's `%T` prints for a decoded JSON value (Furiko decodes YAML through JSON). */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

/**
 * Decodes `optionValues` as Furiko does (`jsonyaml.UnmarshalString`: JSON when it starts with `{`, else the
 * first YAML document through go-yaml v2 and JSON). Empty text is not decoded (Furiko skips it), and a null
 * document leaves the map empty. Throws with Go's error text, e.g. `error converting YAML to JSON: yaml:
 * line 1: did not find expected node content`, `json: offset 9: invalid character '}' looking for beginning
 * of object key string`, or `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string
 * into Go value of type map[string]interface {}`.
 */
export function parseOptionValues(text: string | undefined): Record<string, unknown> {
  return text ? unmarshalYamlOrJson(text) : {};
}

/**
 * Compact JSON as Go's json.Marshal writes it, as the webhook re-serialises `optionValues`: map keys sorted
 * by their UTF-8 bytes, `<`, `>`, `&`, U+2028 and U+2029 escaped (`\u0026`), -0 kept, and a lone surrogate
 * (which Go's decoder made U+FFFD) written as U+FFFD.
 */
export function compactOptionValues(values: Record<string, unknown>): string {
  return goJson(values);
}

function goJson(value: unknown): string {
  if (typeof value === 'string') {
    const text = JSON.stringify(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
    return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .map((key) => `${goJson(key)}:${goJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Evaluates every option of `spec` with the given values; a key that is not an option is ignored. */
export function evaluateOptionValues(values: Record<string, unknown>, spec?: OptionSpec): OptionEvaluation {
  const substitutions: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const option of spec?.options ?? []) {
    const value = Object.prototype.hasOwnProperty.call(values, option.name) ? values[option.name] : undefined;
    const result = evaluateOption(value ?? undefined, option, `${OPTION_VALUES_PATH}[${option.name}]`);
    if (typeof result === 'string') substitutions[optionVariableName(option)] = result;
    else errors.push(result);
  }
  return { substitutions, errors };
}

/**
 * The `option.<name>` substitutions of a Job given no values (a scheduled Job): every option at its
 * default. Throws OptionValuesError (message `spec.optionValues[<name>]: Required value: option is
 * required`) when a required option has no usable default — such a JobConfig cannot be scheduled.
 */
export function defaultOptionSubstitutions(spec?: OptionSpec): Record<string, string> {
  const { substitutions, errors } = evaluateOptionValues({}, spec);
  if (errors.length) throw new OptionValuesError(errors);
  return substitutions;
}

/** Evaluates one option: the rendered string, or the field error at `path`. `undefined` means no value. */
export function evaluateOption(value: unknown, option: Option, path: string): string | FieldError {
  switch (option.type) {
    case 'Bool':
      return evaluateBool(value, option.bool ?? { default: false }, path);
    case 'String':
      return evaluateString(value, option, option.string ?? {}, path);
    case 'Select':
      return evaluateSelect(value, option, option.select ?? { values: [] }, path);
    case 'Multi':
      return evaluateMulti(value, option, option.multi ?? { values: [], delimiter: '' }, path);
    case 'Date':
      return evaluateDate(value, option, option.date ?? {}, path);
  }
  return invalid(path, value ?? null, `unsupported option type ${String(option.type)}`);
}

/** Renders a bool with the option's format; an unknown format is an error, as in Furiko. */
export function formatBool(value: boolean, cfg: BoolOptionConfig): string | Error {
  switch (cfg.format) {
    case 'Custom':
      return (value ? cfg.trueVal : cfg.falseVal) ?? '';
    case 'TrueFalse':
      return value ? 'true' : 'false';
    case 'OneZero':
      return value ? '1' : '0';
    case 'YesNo':
      return value ? 'yes' : 'no';
  }
  return new Error(`invalid format: ${cfg.format ?? ''}`);
}

function evaluateBool(value: unknown, cfg: BoolOptionConfig, path: string): string | FieldError {
  const v = value === undefined ? cfg.default ?? false : value;
  if (typeof v !== 'boolean') return invalid(path, v, `expected bool, got ${goTypeName(v)}`);
  const rendered = formatBool(v, cfg);
  return rendered instanceof Error ? invalid(path, v, rendered.message) : rendered;
}

function evaluateString(value: unknown, option: Option, cfg: StringOptionConfig, path: string): string | FieldError {
  const v = value === undefined ? cfg.default ?? '' : value;
  if (typeof v !== 'string') return invalid(path, v, `expected string, got ${goTypeName(v)}`);
  const text = cfg.trimSpaces ? v.trim() : v;
  if (option.required && text.length === 0) return required(path, 'option is required');
  return text;
}

function evaluateSelect(value: unknown, option: Option, cfg: SelectOptionConfig, path: string): string | FieldError {
  const v = value === undefined ? cfg.default ?? '' : value;
  if (typeof v !== 'string') return invalid(path, v, `expected string, got ${goTypeName(v)}`);
  const values = cfg.values ?? [];
  if (v.length > 0 && !cfg.allowCustom && !values.includes(v)) return notSupported(path, v, values);
  if (v.length === 0 && option.required) return required(path, 'option is required');
  return v;
}

function evaluateMulti(value: unknown, option: Option, cfg: MultiOptionConfig, path: string): string | FieldError {
  const given = value === undefined ? [] : value;
  if (!Array.isArray(given)) return invalid(path, given, `expected []string, got ${goTypeName(given)}`);
  // Furiko names the type of the whole list, not of the bad element, in this message.
  const bad = given.find((element) => typeof element !== 'string');
  if (bad !== undefined) return invalid(path, bad, `expected string, got ${goTypeName(given)}`);
  const chosen: string[] = given.length > 0 ? (given as string[]) : cfg.default ?? [];
  if (chosen.length === 0 && option.required) return required(path, 'option is required');
  const values = cfg.values ?? [];
  for (const element of chosen) {
    if (!cfg.allowCustom && !values.includes(element)) return notSupported(path, element, values);
    if (element.length === 0) return required(path);
  }
  return chosen.join(cfg.delimiter ?? '');
}

function evaluateDate(value: unknown, option: Option, cfg: DateOptionConfig, path: string): string | FieldError {
  const v = value === undefined ? '' : value;
  if (typeof v !== 'string') return invalid(path, v, `expected string, got ${goTypeName(v)}`);
  if (v.length === 0) return option.required ? required(path, 'option is required') : '';
  try {
    return formatMoment(parseRFC3339(v), cfg.format ?? '');
  } catch (err) {
    if (err instanceof TimeParseError) return invalid(path, v, `cannot parse time: ${err.message}`);
    throw err;
  }
}
