/**
 * Field errors as the real API server renders them (apimachinery 1.32 `field.Error`): the one field-error
 * module, src/apimachinery/field.ts (shared with the runtime and made projects), under the names the
 * cluster's layers import.
 */
export {
  type FieldError,
  type FieldErrorType,
  goQuote,
  GoSyntaxValue,
  renderValue,
  fieldErrorBody,
  fieldErrorText,
  aggregateText,
  required,
  invalid,
  forbidden,
  notSupported,
  duplicate,
  notFound,
  tooLong,
  tooMany,
  typeInvalid,
} from '../../apimachinery/field.js';
