/**
 * The option-spec hash a Job records in `execution.furiko.io/option-spec-hash`, computed as Furiko's
 * `options.HashOptionSpec`: labels dropped, every nil config pointer replaced by an empty config, options
 * sorted by name, then hashstructure v2 (FormatV2, FNV-1 64, zero values ignored) over Furiko's Go structs
 * (OptionSpec → Option → BoolOptionConfig…, Go field names in declaration order); lowercase hex, no padding.
 */
import type { BoolOptionConfig, DateOptionConfig, MultiOptionConfig, Option, OptionSpec, SelectOptionConfig, StringOptionConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { boolField, hashSlice, hashStruct, stringField, stringSliceField } from './hashstructure.js';

function hashOption(option: Option): bigint {
  // A nil config pointer hashes as an empty config (Furiko sets each to a zero-valued struct first).
  const bool: Partial<BoolOptionConfig> = option.bool ?? {};
  const string: Partial<StringOptionConfig> = option.string ?? {};
  const select: Partial<SelectOptionConfig> = option.select ?? {};
  const multi: Partial<MultiOptionConfig> = option.multi ?? {};
  const date: Partial<DateOptionConfig> = option.date ?? {};
  return hashStruct('Option', [
    ['Type', stringField(option.type)],
    ['Name', stringField(option.name)],
    // Label is dropped: it does not affect evaluation.
    ['Required', boolField(option.required)],
    ['Bool', hashStruct('BoolOptionConfig', [
      ['Default', boolField(bool.default)],
      ['Format', stringField(bool.format)],
      ['TrueVal', stringField(bool.trueVal)],
      ['FalseVal', stringField(bool.falseVal)],
    ])],
    ['String', hashStruct('StringOptionConfig', [
      ['Default', stringField(string.default)],
      ['TrimSpaces', boolField(string.trimSpaces)],
    ])],
    ['Select', hashStruct('SelectOptionConfig', [
      ['Default', stringField(select.default)],
      ['Values', stringSliceField(select.values)],
      ['AllowCustom', boolField(select.allowCustom)],
    ])],
    ['Multi', hashStruct('MultiOptionConfig', [
      ['Default', stringSliceField(multi.default)],
      ['Delimiter', stringField(multi.delimiter)],
      ['Values', stringSliceField(multi.values)],
      ['AllowCustom', boolField(multi.allowCustom)],
    ])],
    ['Date', hashStruct('DateOptionConfig', [['Format', stringField(date.format)]])],
  ]);
}

/** Furiko's hex hash of `spec` (an absent spec hashes like an empty one). */
export function hashOptionSpec(spec: OptionSpec | undefined): string {
  const options = spec?.options && [...spec.options].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const optionsHash = options ? hashSlice(options.map(hashOption)) : undefined;
  return hashStruct('OptionSpec', [['Options', optionsHash]]).toString(16);
}
