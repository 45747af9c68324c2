// fileCommentLines finds comments by searching the text outside the literals the parser found (strings,
// templates, regular expressions, JSX text). This checks it against the way it found them before, kept here as
// the oracle: the leading and trailing comments of every node and token of the syntax tree (getChildren). The two
// must agree on every TypeScript file of this repository and on literals built to look like comments.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import { fileCommentLines, fileCommentRanges } from './file-markers.js';

/** The comments of `text` as [pos, end) pairs, found through every node and token (the former algorithm). */
function commentsByTokens(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
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
  return [...ranges.values()].sort((a, b) => a.pos - b.pos).map((r) => text.slice(r.pos, r.end));
}

/** The comments fileCommentRanges finds, as their texts. */
function commentsBySearch(file: string, text: string): string[] {
  return fileCommentRanges(file, text).map((r) => text.slice(r.pos, r.end));
}

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

function typeScriptFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) typeScriptFiles(full, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

describe('fileCommentLines', () => {
  it('finds the same comments as visiting every token, in a third of the TypeScript files of the repository', () => {
    // Every third file (sorted) keeps the test to a couple of seconds; all of them agreed when this was written.
    const files = ['src', 'e2e', 'examples', 'templates']
      .flatMap((d) => (fs.existsSync(path.join(repo, d)) ? typeScriptFiles(path.join(repo, d)) : []))
      .sort()
      .filter((_, i) => i % 3 === 0);
    expect(files.length).toBeGreaterThan(100);
    let comments = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const expected = commentsByTokens(file, text);
      comments += expected.length;
      expect({ file, comments: commentsBySearch(file, text) }).toEqual({ file, comments: expected });
    }
    expect(comments).toBeGreaterThan(700);
  });

  it('does not take what only looks like a comment inside literals for one', () => {
    const text = [
      '#!/usr/bin/env node // not a comment',
      "const url = 'http://example.com/*x*/'; // one",
      'const re = /[/*]+\\/\\//g; /* two */',
      'const t = `a // b ${x /* three */} c /* d */ ${`e // f`} g`;',
      'type T = `x//${string}`; // four',
      'const d = a / b / c; // five',
      '/* six',
      ' * +kubebuilder:rbac:groups=a,resources=b,verbs=c */',
      '// seven at the end',
    ].join('\n');
    expect(fileCommentLines('a.ts', text).map((l) => l.text.trim())).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      '+kubebuilder:rbac:groups=a,resources=b,verbs=c',
      'seven at the end',
    ]);
    expect(commentsByTokens('a.ts', text)).toHaveLength(7);
  });

  it('does not take JSX text for a comment (where visiting every token did)', () => {
    const text = 'const e = <div title="a//b">// text {/* comment */} /* text */</div>; // after\n';
    expect(fileCommentLines('a.tsx', text).map((l) => l.text.trim())).toEqual(['comment', 'after']);
    // The former way scanned JSX text as code: the one place where the two differ, and the new one is right.
    expect(commentsByTokens('a.tsx', text)).toContain('/* text */');
  });
});
