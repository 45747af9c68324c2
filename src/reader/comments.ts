/**
 * Comment handling for the reader: splits the comments above a declaration into Go-like blocks (godoc =
 * the block touching the node, "closest" = the nearest block separated from it by a blank line), turns `//`
 * and JSDoc comments into CommentLines, and normalises description text the way controller-gen does (§6.1).
 */
import type { CommentLine } from '../markers/types.js';

/** A comment range in a file: [pos, end) plus whether it is a `//` comment. */
export interface CommentRange {
  pos: number;
  end: number;
  singleLine: boolean;
}

/** Maps offsets to 1-based line/column for one file (column counts UTF-16 units, 1-based). */
export class LineMap {
  private readonly starts: number[] = [0];
  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  position(offset: number): { file: string; line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

/** Counts newlines in text[from, to). */
function newlinesBetween(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Groups comment ranges into blocks: consecutive comments with no blank line between them. */
export function groupIntoBlocks(text: string, ranges: readonly CommentRange[]): CommentRange[][] {
  const blocks: CommentRange[][] = [];
  for (const range of ranges) {
    const last = blocks[blocks.length - 1];
    const prev = last?.[last.length - 1];
    if (last && prev && newlinesBetween(text, prev.end, range.pos) <= 1) last.push(range);
    else blocks.push([range]);
  }
  return blocks;
}

/**
 * Splits the comment blocks above a node at `nodeStart`: `godoc` touches the node (no blank line),
 * `closest` is the nearest separated block, `earlier` are all blocks before those.
 */
export function splitLeadingBlocks(
  text: string,
  ranges: readonly CommentRange[],
  nodeStart: number,
): { godoc?: CommentRange[]; closest?: CommentRange[]; earlier: CommentRange[][] } {
  const blocks = groupIntoBlocks(text, ranges);
  const last = blocks[blocks.length - 1];
  let godoc: CommentRange[] | undefined;
  if (last && newlinesBetween(text, last[last.length - 1]!.end, nodeStart) <= 1) godoc = blocks.pop();
  const closest = blocks.pop();
  return { godoc, closest, earlier: blocks };
}

/**
 * Directive comments are not documentation, so never part of a description (nor markers). Go's rule (go/ast
 * `isDirective`, which controller-gen's comment text applies, spec §6.1): `//` immediately followed by
 * `line `, `extern `, `export ` or `[a-z0-9]+:[a-z0-9]` (`//go:generate`, `//nolint:lll`, `//go:build`; with a
 * space after `//` it is text again). TypeScript's equivalents, with or without one space after `//`:
 * `@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`, `@ts-check`, `eslint-disable…`, `eslint-enable…`,
 * `prettier-ignore`, `istanbul ignore …`, `c8 ignore …`, and `/// <reference …/>`. (`//+build` is a `+` line:
 * kept out as a marker of another tool.) `afterSlashes` is the comment text after `//`.
 */
export function isDirective(afterSlashes: string): boolean {
  if (/^(line |extern |export )/.test(afterSlashes) || /^[a-z0-9]+:[a-z0-9]/.test(afterSlashes)) return true;
  return /^ ?(@ts-(ignore|expect-error|nocheck|check)\b|eslint-(disable|enable)\b|prettier-ignore\b|istanbul ignore\b|c8 ignore\b)/.test(afterSlashes) || /^\/ ?<reference\b/.test(afterSlashes);
}

/** Turns comment ranges into lines with comment syntax removed (`//` plus one space; JSDoc `/**`, `*`, `*\/`). */
export function commentLines(lines: LineMap, ranges: readonly CommentRange[]): CommentLine[] {
  const out: CommentLine[] = [];
  const text = lines.text;
  for (const range of ranges) {
    if (range.singleLine) {
      if (isDirective(text.slice(range.pos + 2, range.end))) continue;
      let start = range.pos + 2;
      if (text[start] === ' ') start++;
      out.push({ text: text.slice(start, range.end).trimEnd(), position: lines.position(start) });
      continue;
    }
    const isJsDoc = text.startsWith('/**', range.pos) && !text.startsWith('/**/', range.pos);
    const bodyStart = range.pos + (isJsDoc ? 3 : 2);
    const bodyEnd = range.end - 2;
    let lineStart = bodyStart;
    while (lineStart <= bodyEnd) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0 || lineEnd > bodyEnd) lineEnd = bodyEnd;
      let start = lineStart;
      while (start < lineEnd && (text[start] === ' ' || text[start] === '\t')) start++;
      if (text[start] === '*') {
        start++;
        if (text[start] === ' ') start++;
      }
      const lineText = text.slice(start, lineEnd).trimEnd();
      const isFirstOrLast = lineStart === bodyStart || lineEnd === bodyEnd;
      if (!(isFirstOrLast && lineText === '')) out.push({ text: lineText, position: lines.position(start) });
      lineStart = lineEnd + 1;
    }
  }
  return out;
}

/**
 * Normalises description lines as controller-gen does: trailing spaces stripped, leading/trailing blank lines
 * dropped, blank runs collapsed; outside ``` / ~~~ fences, `TODO` lines are dropped and a `---` line ends the text.
 */
export function normaliseDescription(lines: readonly string[]): string {
  const kept: string[] = [];
  let inFence = false;
  for (const raw of lines) {
    const line = raw.trimEnd(); // the same as replace(/\s+$/, ''): both strip WhiteSpace and LineTerminator
    if (line.startsWith('```') || line.startsWith('~~~')) inFence = !inFence;
    else if (!inFence) {
      if (line.startsWith('TODO')) continue;
      if (line.startsWith('---')) break;
    }
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n');
}
