/**
 * Finds the marker an editor position is on: the `+…` text of the comment line holding the offset, as the
 * generator reads it (a comment line whose text, after `//`, `/**` or a JSDoc `*`, starts with `+`).
 */

/** A comment of a file, [pos, end), as the compiler's scanner reports it. */
export interface CommentSpan {
  pos: number;
  end: number;
  /** True for `//` comments, false for block and JSDoc comments. */
  singleLine: boolean;
}

/** The marker on one comment line: where its `+` stands and its text up to the end of the line. */
export interface MarkerAtOffset {
  /** Offset of the `+` in the file. */
  start: number;
  /** From the `+` to the end of the comment line, trailing spaces and a closing `*\/` left out. */
  text: string;
}

/** The marker whose comment line holds `offset` (anywhere from its `+` to the end of the line), if any. */
export function markerAtOffset(text: string, comments: readonly CommentSpan[], offset: number): MarkerAtOffset | undefined {
  const comment = comments.find((c) => c.pos < offset && offset <= c.end);
  if (!comment) return undefined;
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1) + 1, comment.pos);
  const newline = text.indexOf('\n', offset);
  let lineEnd = Math.min(newline < 0 ? text.length : newline, comment.end);
  if (!comment.singleLine && lineEnd === comment.end) lineEnd -= 2; // the closing `*/`
  let at = lineStart;
  if (at === comment.pos) at += comment.singleLine ? 2 : text.startsWith('/**', at) ? 3 : 2;
  while (at < lineEnd && (text[at] === ' ' || text[at] === '\t')) at++;
  if (!comment.singleLine && text[at] === '*' && at === lineStartAfterIndent(text, lineStart, comment)) {
    at++;
    while (at < lineEnd && (text[at] === ' ' || text[at] === '\t')) at++;
  }
  if (text[at] !== '+' || offset < at) return undefined;
  const markerText = text.slice(at, lineEnd).trimEnd();
  if (offset > at + markerText.length) return undefined;
  return { start: at, text: markerText };
}

/** Where a block comment's line starts after its indentation (and after the opener on the comment's first line). */
function lineStartAfterIndent(text: string, lineStart: number, comment: CommentSpan): number {
  let at = lineStart === comment.pos ? lineStart + (text.startsWith('/**', lineStart) ? 3 : 2) : lineStart;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}
