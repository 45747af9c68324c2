/**
 * File-wide marker scan: every marker in every comment of a TypeScript file, read as a package-level
 * marker. Used for `+kubebuilder:rbac` and `+kubebuilder:webhook` in internal/**\/*.ts (they may stand
 * anywhere: above a class, a method, or alone) and for `+groupName`/`+versionName` in
 * groupversion_info.ts. The TypeScript parser finds the strings, template literals and regular expressions,
 * so `//` inside them is never mistaken for a comment; the rest of the text is searched for comments.
 *
 * Markers that only exist for types or fields are skipped here (the node they stand on collects
 * them); unknown `kubebuilder:`/`k8s:` markers and near-misses are reported (see markers/collect.ts).
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import { readMarker, type CollectOptions } from '../markers/collect.js';
import type { CommentLine, Diagnostic, Marker } from '../markers/types.js';

export interface FileMarkers {
  markers: Marker[];
  diagnostics: Diagnostic[];
}

/** Scans `text` (the contents of `file`) for package-level markers, in source order. */
export function scanFileMarkers(file: string, text: string, options: CollectOptions = {}): FileMarkers {
  const result: FileMarkers = { markers: [], diagnostics: [] };
  if (!text.includes('+')) return result; // no marker can stand in this file: skip parsing it
  for (const line of fileCommentLines(file, text)) {
    const trimmed = line.text.trimStart();
    if (!trimmed.startsWith('+')) continue;
    const position = { ...line.position, column: line.position.column + (line.text.length - trimmed.length) };
    const reading = readMarker(trimmed.trimEnd(), 'package', position, options);
    if (reading.marker) result.markers.push(reading.marker);
    result.diagnostics.push(...reading.diagnostics);
  }
  return result;
}

/** Every comment line of the file (comment syntax removed), in source order. */
export function fileCommentLines(file: string, text: string): CommentLine[] {
  const source = parse(file, text);
  return findComments(text, literalRanges(source)).flatMap((range) => commentRangeLines(source, text, range));
}

/** Every comment of the file, in source order. */
export function fileCommentRanges(file: string, text: string): TS.CommentRange[] {
  return findComments(text, literalRanges(parse(file, text)));
}

function parse(file: string, text: string): TS.SourceFile {
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  return ts.createSourceFile(file, text, options, false, scriptKindOf(file));
}

/** Kinds of tokens whose text may hold `//` or `/*` without being a comment. */
const LITERAL_KINDS = new Set<TS.SyntaxKind>([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.JsxText,
]);

/**
 * [start, end) of every string, template, regular-expression literal and JSX text, in source order: the parser
 * has told them from code (a `/` that starts a regular expression, a `}` that resumes a template), so the rest of
 * the text can be searched for comments directly — far cheaper than visiting every token.
 */
function literalRanges(source: TS.SourceFile): number[] {
  const ranges: number[] = [];
  const visit = (node: TS.Node): void => {
    if (LITERAL_KINDS.has(node.kind)) {
      // JSX text has no leading trivia (its text may start with `//`); the others start after theirs.
      ranges.push(node.kind === ts.SyntaxKind.JsxText ? node.pos : node.getStart(source), node.end);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return ranges;
}

/** Every comment of `text` outside the literal ranges, in order (what the compiler's scanner sees as comments). */
function findComments(text: string, literals: number[]): TS.CommentRange[] {
  const comments: TS.CommentRange[] = [];
  let next = 0; // index into `literals` (start, end pairs)
  let pos = text.startsWith('#!') ? lineEnd(text, 0) : 0; // a shebang line is not a comment
  while (pos < text.length) {
    while (next < literals.length && literals[next + 1]! <= pos) next += 2;
    if (next < literals.length && literals[next]! <= pos) {
      pos = literals[next + 1]!;
      continue;
    }
    const slash = text.indexOf('/', pos);
    if (slash < 0) break;
    if (next < literals.length && literals[next]! <= slash) {
      pos = literals[next + 1]!;
      continue;
    }
    const after = text.charCodeAt(slash + 1);
    if (after === 47 /* / */) {
      const end = lineEnd(text, slash + 2);
      comments.push({ pos: slash, end, kind: ts.SyntaxKind.SingleLineCommentTrivia });
      pos = end;
    } else if (after === 42 /* * */) {
      const close = text.indexOf('*/', slash + 2);
      const end = close < 0 ? text.length : close + 2;
      comments.push({ pos: slash, end, kind: ts.SyntaxKind.MultiLineCommentTrivia });
      pos = end;
    } else {
      pos = slash + 1;
    }
  }
  return comments;
}

/** The position of the first line break at or after `from` (the end of a `//` comment), or the end of the text. */
function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return i;
  }
  return text.length;
}

function scriptKindOf(file: string): TS.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.js') || file.endsWith('.mjs') || file.endsWith('.cjs')) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Lines of one comment: `// text` → text; `/* … *\/` and JSDoc → each line without its leading `*`. */
function commentRangeLines(source: TS.SourceFile, text: string, range: TS.CommentRange): CommentLine[] {
  const at = (offset: number) => {
    const { line, character } = source.getLineAndCharacterOfPosition(offset);
    return { file: source.fileName, line: line + 1, column: character + 1 };
  };
  if (range.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
    return [{ text: text.slice(range.pos + 2, range.end), position: at(range.pos + 2) }];
  }
  const opener = text.startsWith('/**', range.pos) && !text.startsWith('/**/', range.pos) ? 3 : 2;
  const bodyStart = range.pos + opener;
  const body = text.slice(bodyStart, range.end - 2);
  const lines: CommentLine[] = [];
  let offset = bodyStart;
  for (const raw of body.split('\n')) {
    const star = /^(\s*\*(?!\/))?/.exec(raw)![0];
    const content = raw.slice(star.length).replace(/\r$/, '');
    lines.push({ text: content, position: at(offset + star.length) });
    offset += raw.length + 1;
  }
  return lines;
}
