// A lint over the local cluster's own code (tests and test data left out): it holds no `any` type. Objects
// are typed (KubeObject with kubernetes-types' ObjectMeta and `unknown` fields, read as their kind with
// asStored<Pod>(obj)). Should a deliberate `any` ever be needed, it says why on its line or in the `//`
// comment right above it (`// any: …`) and is counted apart.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The most `any` types src/cluster may hold: none (2026-11-27, from 397 that morning): the kubelet's pod status is
 * kubernetes-types' PodStatus (controllers/pod-status.ts), the pod security checks read a PodSpec, the CRD
 * schema walkers read user-written OpenAPI schemas as CrdSchema (crd/crd-schema.ts), and KubeObject's own
 * fields are `unknown` (store/kube-object.ts), read through each kind's type.
 */
const budget = 0;

const clusterDir = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testdata' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface AnyUse {
  /** `file:line`, relative to src/cluster. */
  at: string;
  /** The use says why (`// any: …` on its line or in the line comment right above). */
  explained: boolean;
}

/** Every `any` type in a TypeScript source text. */
function anyUses(fileName: string, text: string): AnyUse[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const uses: AnyUse[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const commentAbove: string[] = [];
      for (let l = line - 1; l >= 0 && /^\s*\/\//.test(lines[l]!); l--) commentAbove.push(lines[l]!);
      const explained = [lines[line]!, ...commentAbove].some((l) => /\/\/ any: \S/.test(l));
      uses.push({ at: `${fileName}:${line + 1}`, explained });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

describe('any in src/cluster', () => {
  const uses = sourceFiles(clusterDir).flatMap((file) => anyUses(relative(clusterDir, file), readFileSync(file, 'utf8')));

  it('counts every any type, and lets a reason comment excuse one', () => {
    const sample = 'const a: any = 1;\n// any: a reason\nconst b: any[] = [];\nfunction f(x: Record<string, any>): any { return x; } // any: another\n// any: a reason\n// that goes on\nlet c: any;\n// any: not next to it\n\nlet d: any;\n';
    expect(anyUses('sample.ts', sample)).toEqual([
      { at: 'sample.ts:1', explained: false },
      { at: 'sample.ts:3', explained: true },
      { at: 'sample.ts:4', explained: true },
      { at: 'sample.ts:4', explained: true },
      { at: 'sample.ts:7', explained: true },
      { at: 'sample.ts:10', explained: false },
    ]);
    expect(anyUses('none.ts', 'const s: unknown = "any"; // any of them\n')).toEqual([]);
  });

  it(`holds at most ${budget} unexplained any types`, () => {
    const unexplained = uses.filter((u) => !u.explained).map((u) => u.at);
    if (unexplained.length > budget) throw new Error(`${unexplained.length} any types in src/cluster (budget ${budget}):\n${unexplained.join('\n')}`);
    expect(unexplained.length).toBeLessThanOrEqual(budget);
  });

  it('has no explained any either: the store object type and everything read through it are typed', () => {
    expect(uses.map((u) => u.at)).toEqual([]);
  });
});
