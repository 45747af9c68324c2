/**
 * A kubeforge diagnostic (`file:line:col: message`) as a TypeScript diagnostic: an error (a warning for a marker
 * controller-gen ignores, see markers/README.md) with source "kubeforge"
 * and code 91400, spanning the marker it is about — from its `+` to the end of its comment line — or, for other
 * diagnostics, the name at its position.
 */
import type ts from 'typescript';
import type { Diagnostic } from '../markers/types.js';

/** The code kubeforge's diagnostics carry (shown as `ts(91400)`); their source is "kubeforge". */
export const KUBEFORGE_DIAGNOSTIC_CODE = 91400;

/** A kubeforge diagnostic as TypeScript's: an error spanning the marker (to the end of its line) or the name it names. */
export function toTsDiagnostic(typescript: typeof ts, text: string, d: Diagnostic, file: ts.SourceFile | undefined): ts.Diagnostic {
  const start = offsetOf(text, d.position.line, d.position.column);
  return {
    file,
    start,
    length: spanLength(text, start),
    messageText: d.message,
    category: d.severity === 'warning' ? typescript.DiagnosticCategory.Warning : typescript.DiagnosticCategory.Error,
    code: KUBEFORGE_DIAGNOSTIC_CODE,
    source: 'kubeforge',
  };
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const newline = text.indexOf('\n', offset);
    if (newline < 0) return text.length;
    offset = newline + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** A marker (`+…`) spans to the end of its comment line; anything else spans the word at `start` (at least one character). */
function spanLength(text: string, start: number): number {
  if (text[start] === '+') {
    const newline = text.indexOf('\n', start);
    let line = text.slice(start, newline < 0 ? text.length : newline);
    const close = line.indexOf('*/');
    if (close >= 0) line = line.slice(0, close);
    return Math.max(1, line.trimEnd().length);
  }
  const word = /^[\w$]+/.exec(text.slice(start, start + 200));
  return word ? word[0].length : Math.min(1, text.length - start);
}
