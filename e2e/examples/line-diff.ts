/**
 * A readable line diff (unified style, with a little context) of a committed file against what the CLI
 * makes today, for the drift test's failure messages.
 */

/** `-` lines are only in `expected` (what the CLI makes), `+` lines only in `actual` (what is committed). */
export function lineDiff(expected: string, actual: string, context = 2): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  // Longest common subsequence table, filled from the end (the files compared are a few hundred lines).
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const ops: { tag: ' ' | '-' | '+'; text: string; line: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ tag: ' ', text: a[i++], line: j++ + 1 });
    // Removed lines before added ones, as unified diffs show a changed line.
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ tag: '-', text: a[i++], line: j + 1 });
    else ops.push({ tag: '+', text: b[j++], line: j });
  }
  const shown = new Set<number>();
  ops.forEach((op, k) => {
    if (op.tag === ' ') return;
    for (let c = Math.max(0, k - context); c <= Math.min(ops.length - 1, k + context); c++) shown.add(c);
  });
  const out: string[] = [];
  let last = -2;
  for (const k of [...shown].sort((x, y) => x - y)) {
    if (k !== last + 1) out.push(`@@ committed line ${ops[k].line} @@`);
    out.push(`${ops[k].tag} ${ops[k].text}`);
    last = k;
  }
  return out.join('\n');
}
