/**
 * The parser-only part of the TypeScript compiler bundle. The reader needs the scanner, the parser and the node
 * tests, which esbuild places first in the 9 MB `typescript.js` (core, types, scanner, utilities, node factory,
 * parser — about 2 MB); the checker, program, emitter, transformers and services follow. Compiling only that first
 * part saves about 0.1 s of every `manifests` run without the code cache (V8 scans every byte it compiles). The
 * part is the bundle cut before `src/compiler/commandLineParser.ts`, closed with the bundle's own last line; the
 * export list at the top stays whole, and an export defined in the part left out (`flattenDiagnosticMessageText`,
 * in program.ts) is taken from the whole compiler, loaded on first use. A bundle that does not have this layout,
 * or a part that fails its check, gives undefined and the caller loads the whole compiler.
 */
import type { ts as TypeScript } from 'ts-morph';

/** The first section the part leaves out: everything from here on is not needed to parse. */
const CUT_BEFORE = '\n// src/compiler/commandLineParser.ts\n';
/** The bundle's last statement, which closes its wrapper and hands out the exports. */
const CLOSING = '\n})({ get exports() { return ts; }';

/** The parser-only module text of the compiler bundle `bundle`, or undefined when its layout is not the expected one. */
export function parserOnlySource(bundle: string): string | undefined {
  const cut = bundle.indexOf(CUT_BEFORE);
  const closing = bundle.lastIndexOf(CLOSING);
  if (cut < 0 || closing < cut || !bundle.includes('\n// src/compiler/parser.ts\n')) return undefined;
  if (bundle.indexOf('\n// src/compiler/parser.ts\n') > cut) return undefined;
  return bundle.slice(0, cut) + bundle.slice(closing);
}

/** A source exercising what the reader parses: imports, interfaces, aliases, literals, comments, templates, regexes. */
const SAMPLE = `import type { A, B as C } from './a.js';
import * as ns from 'kubernetes-types/core/v1';
export { D } from './d.js';
/** Doc. */
// +kubebuilder:object:root=true
export interface X extends A, ns.Y { a?: string; 'b-c': 1 | -2 | 'x'; d: Record<string, C[]>; [k: string]: unknown }
export type Z = keyof X | readonly [string, number] | (() => void) | \`t\${'x'}\`;
const r = /a\\/b/g; const t = \`\${r}\`; export function deepCopyX(x: X): X { return { ...x }; }
`;

type Methods = Record<string, (this: TypeScript.Node, ...args: never[]) => unknown>;
type Allocator = Record<string, () => { prototype: object }>;
type Constructor = (this: object, kind: TypeScript.SyntaxKind, pos: number, end: number) => void;

/** What the language service (the bundle's last part) adds to nodes, by constructor: the methods the reader calls. */
const SERVICE_METHODS = {
  node: ['assertHasRealPosition', 'getSourceFile', 'getStart', 'getFullStart', 'getEnd', 'getWidth', 'getFullWidth', 'getLeadingTriviaWidth', 'getFullText', 'getText', 'getChildCount', 'getChildAt', 'getChildren', 'getFirstToken', 'getLastToken', 'forEachChild'],
  sourceFile: ['update', 'getLineAndCharacterOfPosition', 'getLineStarts', 'getPositionOfLineAndCharacter', 'getLineEndOfPosition', 'getNamedDeclarations', 'computeNamedDeclarations'],
};

/**
 * Gives the part's nodes what the language service gives the whole compiler's (which the part leaves out): the node
 * methods (`getStart`, `getText`, …), identifiers' `text` and source files' line methods. The common ones are
 * written here over the part's own functions; the rest call the whole compiler's methods (loaded on first use).
 */
function equipNodes(ts: typeof TypeScript, whole: () => typeof TypeScript): void {
  const internal = ts as unknown as { objectAllocator: Allocator; setObjectAllocator(allocator: Allocator): void; idText(node: object): string; getTokenPosOfNode(node: object, source?: object, jsDoc?: boolean): number; getSourceFileOfNode(node: object): TypeScript.SourceFile };
  const base = internal.objectAllocator;
  const wholePrototype = (constructor: string): Methods => (whole() as unknown as { objectAllocator: Allocator }).objectAllocator[constructor]!().prototype as Methods;
  const own: Methods = {
    getSourceFile() {
      return internal.getSourceFileOfNode(this);
    },
    getStart(this: TypeScript.Node, source?: TypeScript.SourceFile, jsDoc?: boolean) {
      return internal.getTokenPosOfNode(this, source, jsDoc);
    },
    getFullStart() {
      return this.pos;
    },
    getEnd() {
      return this.end;
    },
    getWidth(this: TypeScript.Node, source?: TypeScript.SourceFile) {
      return this.getEnd() - this.getStart(source);
    },
    getFullWidth() {
      return this.end - this.pos;
    },
    getFullText(this: TypeScript.Node, source?: TypeScript.SourceFile) {
      return (source ?? this.getSourceFile()).text.substring(this.pos, this.end);
    },
    getText(this: TypeScript.Node, source?: TypeScript.SourceFile) {
      return (source ?? this.getSourceFile()).text.substring(this.getStart(source), this.getEnd());
    },
    forEachChild(this: TypeScript.Node, each: (node: TypeScript.Node) => unknown, eachArray?: (nodes: TypeScript.NodeArray<TypeScript.Node>) => unknown) {
      return ts.forEachChild(this, each, eachArray);
    },
    getLineAndCharacterOfPosition(this: TypeScript.Node, position: number) {
      return ts.getLineAndCharacterOfPosition(this as TypeScript.SourceFile, position);
    },
    getLineStarts(this: TypeScript.Node) {
      return (ts as unknown as { getLineStarts(source: TypeScript.SourceFile): readonly number[] }).getLineStarts(this as TypeScript.SourceFile);
    },
  };
  const equipped = (baseConstructor: string, wholeConstructor: string, names: string[], withText: boolean) => {
    const Base = base[baseConstructor]!() as unknown as Constructor;
    const Equipped = function (this: object, kind: TypeScript.SyntaxKind, pos: number, end: number) {
      Base.call(this, kind, pos, end);
    } as unknown as { prototype: object };
    Equipped.prototype = Object.create(Base.prototype as object);
    for (const name of names) {
      const method = own[name] ?? function (this: TypeScript.Node, ...args: never[]) {
        return wholePrototype(wholeConstructor)[name]!.apply(this, args);
      };
      Object.defineProperty(Equipped.prototype, name, { value: method, writable: true, configurable: true });
    }
    if (withText) Object.defineProperty(Equipped.prototype, 'text', { get(this: object) { return internal.idText(this); }, configurable: true });
    return () => Equipped;
  };
  internal.setObjectAllocator({
    getNodeConstructor: equipped('getNodeConstructor', 'getNodeConstructor', SERVICE_METHODS.node, false),
    getTokenConstructor: equipped('getTokenConstructor', 'getTokenConstructor', SERVICE_METHODS.node, false),
    getIdentifierConstructor: equipped('getIdentifierConstructor', 'getIdentifierConstructor', SERVICE_METHODS.node, true),
    getPrivateIdentifierConstructor: equipped('getPrivateIdentifierConstructor', 'getPrivateIdentifierConstructor', SERVICE_METHODS.node, true),
    getSourceFileConstructor: equipped('getSourceFileConstructor', 'getSourceFileConstructor', [...SERVICE_METHODS.node, ...SERVICE_METHODS.sourceFile], false),
  });
}

/**
 * The compiler whose exports come from `part` (the parser-only module's exports) and, for the exports its text
 * leaves out, from `loadWhole()` (called at most once, on first use of such an export). Undefined when `part` cannot
 * parse the sample the way the reader needs.
 */
export function compilerFromPart(part: object, loadWhole: () => typeof TypeScript): typeof TypeScript | undefined {
  let loaded: typeof TypeScript | undefined;
  const whole = (): typeof TypeScript => (loaded ??= loadWhole());
  const compiler: Record<string, unknown> = {};
  for (const name of Object.keys(part)) {
    const own = (): unknown => (part as Record<string, unknown>)[name];
    let present = true;
    try {
      own();
    } catch (err) {
      if (!(err instanceof ReferenceError) && (err as Error)?.name !== 'ReferenceError') throw err;
      present = false;
    }
    Object.defineProperty(compiler, name, { enumerable: true, get: present ? own : () => (whole() as unknown as Record<string, unknown>)[name] });
  }
  const ts = compiler as unknown as typeof TypeScript;
  try {
    equipNodes(ts, whole);
    const source = ts.createSourceFile('sample.ts', SAMPLE, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, ts.ScriptKind.TS);
    const diagnostics = (source as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? [];
    const x = source.statements[3]!;
    const comments = ts.getLeadingCommentRanges(SAMPLE, x.pos) ?? [];
    const checks = [
      diagnostics.length === 0,
      source.statements.length === 8,
      ts.isInterfaceDeclaration(x) && x.name.text === 'X' && x.name.getText(source) === 'X',
      comments.length === 2,
      source.getLineAndCharacterOfPosition(x.getStart(source)).line === 5,
    ];
    if (checks.includes(false)) return undefined;
  } catch {
    return undefined;
  }
  return ts;
}
