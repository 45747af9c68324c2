/**
 * Validation and defaulting of a JobConfig's OptionSpec (reference-operators spec §4.2, §4.5), with
 * Furiko's field errors: unique names matching ^[a-zA-Z_0-9.-]+$, only the config block of the option's
 * type, and each type's own rules.
 */
import {
  BOOL_OPTION_FORMATS,
  OPTION_TYPES,
  type Option,
  type OptionSpec,
  type OptionType,
} from '../../api/v1alpha1/jobconfig_types.js';
import { forbidden, invalid, notSupported, required, type FieldError } from '../validation/field-errors.js';

export const OPTION_NAME_PATTERN = /^[a-zA-Z_0-9.-]+$/;

/** The config block of each option type. */
const CONFIG_BLOCK: Record<OptionType, keyof Option> = { Bool: 'bool', String: 'string', Select: 'select', Multi: 'multi', Date: 'date' };

/** Defaults an OptionSpec in place: a Bool option without a format gets `bool.format: TrueFalse`. */
export function defaultOptionSpec(spec: OptionSpec | undefined): void {
  for (const option of spec?.options ?? []) {
    if (option.type !== 'Bool') continue;
    option.bool ??= { default: false };
    if (!option.bool.format) option.bool.format = 'TrueFalse';
  }
}

/** Every problem of `spec`, with paths under `path` (`spec.option`). */
export function validateOptionSpec(spec: OptionSpec | undefined, path = 'spec.option'): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (spec?.options ?? []).forEach((option, i) => {
    const optionPath = `${path}.options[${i}]`;
    if (seen.has(option.name)) {
      errors.push(forbidden(optionPath, `duplicate option name: ${JSON.stringify(option.name)}`));
      return;
    }
    seen.add(option.name);
    errors.push(...validateOption(option, optionPath));
  });
  return errors;
}

/** The problems of one option at `path`. */
export function validateOption(option: Option, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!option.type) errors.push(required(path));
  if (!OPTION_TYPES.includes(option.type)) errors.push(notSupported(path, option.type ?? '', OPTION_TYPES));
  if (!OPTION_NAME_PATTERN.test(option.name ?? '')) errors.push(invalid(path, option.name ?? '', `must match regex: ${OPTION_NAME_PATTERN.source}`));
  if (!OPTION_TYPES.includes(option.type)) return errors;
  const ownBlock = CONFIG_BLOCK[option.type];
  const foreignBlock = Object.values(CONFIG_BLOCK).some((block) => block !== ownBlock && option[block] !== undefined && option[block] !== null);
  if (foreignBlock) errors.push(forbidden(path, `cannot specify non-${option.type} options for option type ${option.type}`));
  switch (option.type) {
    case 'Bool':
      errors.push(...validateBool(option, path));
      break;
    case 'Select':
      errors.push(...validateValues(option.select?.values, `${path}.select`));
      if (option.select?.default && !(option.select.values ?? []).includes(option.select.default)) {
        errors.push(notSupported(`${path}.select.default`, option.select.default, option.select.values ?? []));
      }
      break;
    case 'Multi':
      errors.push(...validateMulti(option, path));
      break;
  }
  return errors;
}

function validateBool(option: Option, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const format = option.bool?.format;
  if (!format) errors.push(required(`${path}.bool.format`));
  else if (!BOOL_OPTION_FORMATS.includes(format)) errors.push(notSupported(`${path}.bool.format`, format, BOOL_OPTION_FORMATS));
  if (option.required) errors.push(forbidden(`${path}.required`, 'bool option cannot be marked as required'));
  return errors;
}

/** A Select or Multi list of values: at least one, none empty. */
function validateValues(values: string[] | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!values || values.length === 0) errors.push(required(`${path}.values`, 'at least 1 value is required'));
  (values ?? []).forEach((value, i) => {
    if (!value) errors.push(required(`${path}.values[${i}]`));
  });
  return errors;
}

function validateMulti(option: Option, path: string): FieldError[] {
  const cfg = option.multi;
  const errors = validateValues(cfg?.values, `${path}.multi`);
  const values = cfg?.values ?? [];
  (cfg?.default ?? []).forEach((value, i) => {
    if (!values.includes(value)) errors.push(notSupported(`${path}.multi.default[${i}]`, value, values));
  });
  (cfg?.default ?? []).forEach((value, i) => {
    if (!value) errors.push(required(`${path}.multi.default[${i}]`));
  });
  return errors;
}
