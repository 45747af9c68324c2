/**
 * Field errors gathered during validation and reported as one apimachinery-style Invalid error:
 * `<Kind.group> "<name>" is invalid: <path>: Invalid value: "<value>": <detail>` (several in brackets).
 */

export interface FieldError {
  path: string;
  value: unknown;
  detail: string;
}

/** The Invalid error a validator throws; `causes` keeps the individual field errors for callers. */
export class InvalidError extends Error {
  /** The Kubernetes status the webhook server answers with (as apierrors.NewInvalid). */
  readonly code = 422;
  readonly reason = 'Invalid';

  constructor(
    readonly qualifiedKind: string,
    readonly objectName: string,
    readonly causes: FieldError[],
  ) {
    const listed = causes.map(formatFieldError);
    super(`${qualifiedKind} ${JSON.stringify(objectName)} is invalid: ${listed.length === 1 ? listed[0] : `[${listed.join(', ')}]`}`);
    this.name = 'InvalidError';
  }
}

export class FieldErrorList {
  private readonly errors: FieldError[] = [];

  constructor(
    private readonly qualifiedKind: string,
    private readonly objectName: string,
  ) {}

  invalid(path: string, value: unknown, detail: string): void {
    this.errors.push({ path, value, detail });
  }

  throwIfAny(): void {
    if (this.errors.length) throw new InvalidError(this.qualifiedKind, this.objectName, this.errors);
  }
}

function formatFieldError(error: FieldError): string {
  const value = typeof error.value === 'string' ? JSON.stringify(error.value) : String(error.value);
  return `${error.path}: Invalid value: ${value}: ${error.detail}`;
}
