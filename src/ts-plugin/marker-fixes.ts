/**
 * The edit a "did you mean" diagnostic suggests: the misspelled marker name (`+kubebuilder:validation:Minimun` →
 * `+kubebuilder:validation:Minimum`) or argument name (`namspace=` → `namespace=`) replaced by the catalogue's,
 * on the marker's line. The plugin offers it as a quick fix of the diagnostic.
 */

export interface MarkerFix {
  /** Offset and length of the text to replace. */
  start: number;
  length: number;
  newText: string;
  description: string;
}

// Errors (typos) end at the hint; warnings (markers controller-gen ignores) go on with "; controller-gen ignores it".
const UNKNOWN_MARKER = /^unknown marker "([^"]+)" \(did you mean "([^"]+)"\?\)(; controller-gen ignores it)?( \(an error with --strict-markers\))?$/;
const UNKNOWN_ARGUMENT = /unknown argument "([^"]+)".*\(did you mean "([^"]+)"\?\)$/;

/** The fix of the diagnostic `message` reported at `start` (the marker's `+`) in `text`, if it suggests one. */
export function suggestedFix(text: string, start: number, message: string): MarkerFix | undefined {
  const marker = UNKNOWN_MARKER.exec(message);
  if (marker) {
    const [, wrong, right] = marker as unknown as [string, string, string];
    if (!text.startsWith(wrong, start)) return undefined;
    return { start, length: wrong.length, newText: right, description: `Change to "${right}"` };
  }
  const argument = UNKNOWN_ARGUMENT.exec(message);
  if (argument) {
    const [, wrong, right] = argument as unknown as [string, string, string];
    const newline = text.indexOf('\n', start);
    const line = text.slice(start, newline < 0 ? text.length : newline);
    const at = new RegExp(`[:,]${wrong.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`).exec(line);
    if (!at) return undefined;
    return { start: start + at.index + 1, length: wrong.length, newText: right, description: `Change argument "${wrong}" to "${right}"` };
  }
  return undefined;
}
