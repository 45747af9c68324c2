/**
 * The shapes the marker layer hands to the rest of the generator: where a marker stood, what it said,
 * and the diagnostics found while reading it. The reader (ts-morph) produces `CommentLine`s; the marker
 * layer turns them into `Marker`s checked against the catalogue in ../../markers; the model builders and
 * emitters read `Marker`s by canonical name.
 */

/** A 1-based position in a source file, as printed in `file:line:col: message`. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** Where a marker may stand (controller-gen's package / type / field targets). */
export type MarkerTarget = 'package' | 'type' | 'field';

/** A typed marker argument value (after parsing against the catalogue's declared type). */
export type MarkerValue = string | number | boolean | null | MarkerValue[] | { [key: string]: MarkerValue };

/** One comment line attached to a node, with comment syntax (`//`, `/**`, `*`) removed. */
export interface CommentLine {
  text: string;
  /** Position of the first character of `text` in the file. */
  position: SourcePosition;
}

/** A marker read from a comment and checked against the catalogue. */
export interface Marker {
  /** Canonical name without the leading `+`, e.g. `kubebuilder:validation:Minimum`. */
  name: string;
  /**
   * Arguments by the catalogue's argument name. A marker with one anonymous value
   * (`+kubebuilder:validation:Minimum=0`, `+listType=map`, `+kubebuilder:object:root=true`) stores it under ''.
   * A flag marker with no value (`+optional`) stores `true` under ''.
   */
  args: Record<string, MarkerValue>;
  /** The marker exactly as written, with its leading `+`. */
  text: string;
  position: SourcePosition;
}

/**
 * A problem found while reading input; printed as `file:line:col: message`. Without `severity` it is an
 * error (the run writes nothing); `severity: 'warning'` marks what controller-gen silently ignores (a
 * marker it does not know): printed, but it stops nothing unless `--strict-markers` makes it an error.
 */
export interface Diagnostic {
  position: SourcePosition;
  message: string;
  severity?: 'warning';
}

/** Formats a diagnostic the way every kubeforge command prints it (`warning: ` before a warning's message). */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.position.file}:${d.position.line}:${d.position.column}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`;
}

/** True for a diagnostic that does not stop a run (unless strict). */
export function isWarning(d: Diagnostic): boolean {
  return d.severity === 'warning';
}

/**
 * Splits diagnostics into errors and warnings; with `strict` (`--strict-markers`) every warning is an error
 * too, its message saying why.
 */
export function splitWarnings(diagnostics: readonly Diagnostic[], strict: boolean): { errors: Diagnostic[]; warnings: Diagnostic[] } {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (!isWarning(d)) errors.push(d);
    else if (strict) errors.push({ position: d.position, message: `${d.message} (an error with --strict-markers)` });
    else warnings.push(d);
  }
  return { errors, warnings };
}
