/**
 * File-wide marker scan: every marker in every comment of a TypeScript file, read as a package-level
 * marker. Used for `+kubebuilder:rbac` and `+kubebuilder:webhook` in internal/**\/*.ts (they may stand
 * anywhere: above a class, a method, or alone) and for `+groupName`/`+versionName` in
 * groupversion_info.ts. Comments are found through the TypeScript parser, so `//` inside strings,
 * template literals and regular expressions is never mistaken for a comment.
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
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
  const ranges = new Map<number, TS.CommentRange>();
  const collect = (position: number, trailing: boolean) => {
    const found = trailing ? ts.getTrailingCommentRanges(text, position) : ts.getLeadingCommentRanges(text, position);
    for (const range of found ?? []) ranges.set(range.pos, range);
  };
  const visit = (node: TS.Node) => {
    collect(node.getFullStart(), false);
    collect(node.getEnd(), true);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  collect(0, false);
  return [...ranges.values()].sort((a, b) => a.pos - b.pos).flatMap((range) => commentRangeLines(source, text, range));
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
