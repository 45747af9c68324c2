/** Job options (reference-operators spec §4.5): evaluation, OptionSpec validation and defaulting, and the option-spec hash. */
export {
  OPTION_VALUES_PATH,
  OptionValuesError,
  compactOptionValues,
  defaultOptionSubstitutions,
  evaluateOption,
  evaluateOptionValues,
  formatBool,
  goTypeName,
  optionVariableName,
  parseOptionValues,
  type OptionEvaluation,
} from './evaluate.js';
export { OPTION_NAME_PATTERN, defaultOptionSpec, validateOption, validateOptionSpec } from './validate.js';
export { hashOptionSpec } from './hash.js';
export { DEFAULT_MOMENT_FORMAT, formatMoment } from './moment-format.js';
export { parseRFC3339, TimeParseError, type ZonedTime } from './rfc3339.js';
