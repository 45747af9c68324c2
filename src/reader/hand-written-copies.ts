/**
 * Finds hand-written deep-copy functions (spec §14: a hand-written DeepCopy suppresses the generated one).
 * The TypeScript form is `export function deepCopy<Type>(value: Type): Type` — or an exported `const` bound to
 * an arrow or function expression — in a non-generated file of the folder that declares `<Type>`. Rules:
 * - exactly one parameter; when annotated, the parameter is `<Type>` or `Readonly<Type>` and the return type
 *   is `<Type>` (the generated code passes a `<Type>` and stores the result as one);
 * - it must be exported (the generated file imports it): a non-exported one is an error, as is a
 *   `deepCopy<Type>` that is declared but is not a function (a class, a `let`, a non-function `const`) and a
 *   second hand-written `deepCopy<Type>` in the same folder;
 * - a `deepCopy<Name>` whose `<Name>` is no type of the folder is an ordinary function and is left alone;
 * - `zz_generated*` files never count (they are the generator's own output).
 * The result is recorded on the type (`NamedType.handWrittenDeepCopy`) for the deep-copy generator.
 */
import * as path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { Diagnostic } from '../markers/types.js';
import type { NamedType } from '../model/index.js';
import type { LineMap } from './comments.js';

/** A parsed project file, as the reader holds it. */
export interface ParsedFile {
  /** Path relative to the project root (`/` separators). */
  rel: string;
  sourceFile: TS.SourceFile;
  lines: LineMap;
}

const PREFIX = 'deepCopy';

/** A top-level `deepCopy<Name>` declaration found in a file. */
interface Candidate {
  typeName: string;
  functionName: string;
  exported: boolean;
  /** The function's parameters and return type when it is a function; undefined when it is not one. */
  signature: { parameters: readonly TS.ParameterDeclaration[]; returnType: TS.TypeNode | undefined } | undefined;
  /** What it is when it is not a function ("a class", "a let variable", ...). */
  what: string;
  nameNode: TS.Node;
}

/** True for `export function f` / `export const f` (a default export cannot be imported by its name). */
function isExported(node: TS.Node): boolean {
  const modifiers = (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined) ?? [];
  return modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && !modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}

/** Names exported by `export { a, b as c }` (no module specifier) in the file: local name → exported name. */
function exportListNames(sourceFile: TS.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier || statement.isTypeOnly) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) continue;
    for (const element of clause.elements) {
      if (!element.isTypeOnly) names.set((element.propertyName ?? element.name).text, element.name.text);
    }
  }
  return names;
}

function candidatesOf(sourceFile: TS.SourceFile): Candidate[] {
  const listed = exportListNames(sourceFile);
  const found: Candidate[] = [];
  const add = (nameNode: TS.Identifier, statement: TS.Node, signature: Candidate['signature'], what: string): void => {
    const name = nameNode.text;
    if (!name.startsWith(PREFIX) || name.length === PREFIX.length) return;
    const exported = isExported(statement) || listed.get(name) === name;
    found.push({ typeName: name.slice(PREFIX.length), functionName: name, exported, signature, what, nameNode });
  };
  for (const statement of sourceFile.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      add(statement.name, statement, { parameters: statement.parameters, returnType: statement.type }, 'a function');
    } else if (ts.isClassDeclaration(statement) && statement.name) {
      add(statement.name, statement, undefined, 'a class');
    } else if (ts.isVariableStatement(statement)) {
      const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const init = declaration.initializer;
        const isFunction = init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
        if (isConst && isFunction) {
          add(declaration.name, statement, { parameters: init.parameters, returnType: init.type }, 'a function');
        } else {
          add(declaration.name, statement, undefined, isConst ? 'a constant that is not a function' : 'a variable (only `const` functions count)');
        }
      }
    }
  }
  return found;
}

/** The name a type annotation refers to (`Foo`, `Readonly<Foo>` → Foo); undefined for anything else. */
function annotatedTypeName(node: TS.TypeNode, allowReadonly: boolean): string | undefined {
  if (!ts.isTypeReferenceNode(node) || !ts.isIdentifier(node.typeName)) return undefined;
  const name = node.typeName.text;
  if (allowReadonly && name === 'Readonly' && node.typeArguments?.length === 1) return annotatedTypeName(node.typeArguments[0]!, false);
  return node.typeArguments ? undefined : name;
}

/** The problem with a candidate's signature, or undefined when it fits `(value: Type) => Type`. */
function signatureProblem(candidate: Candidate): string | undefined {
  const { parameters, returnType } = candidate.signature!;
  const { typeName, functionName } = candidate;
  const expected = `(value: ${typeName}): ${typeName}`;
  if (parameters.length !== 1 || parameters[0]!.dotDotDotToken) {
    return `hand-written ${functionName} must take exactly one parameter ${expected}, it takes ${parameters.length}`;
  }
  const parameterType = parameters[0]!.type;
  if (parameterType && annotatedTypeName(parameterType, true) !== typeName) {
    return `hand-written ${functionName}: its parameter must be a ${typeName} ${expected}`;
  }
  if (returnType && annotatedTypeName(returnType, false) !== typeName) {
    return `hand-written ${functionName}: it must return a ${typeName} ${expected}`;
  }
  return undefined;
}

/**
 * Records on each type of `types` the hand-written `deepCopy<Type>` of its folder, and reports misdeclared
 * ones. `files` are the parsed project files (any order); types are matched by name within their folder.
 */
export function findHandWrittenDeepCopies(files: readonly ParsedFile[], types: Record<string, NamedType>, diagnostics: Diagnostic[]): void {
  const typesByFolder = new Map<string, Map<string, NamedType>>();
  for (const type of Object.values(types)) {
    const folder = path.posix.dirname(type.file);
    const byName = typesByFolder.get(folder) ?? new Map<string, NamedType>();
    byName.set(type.name, type);
    typesByFolder.set(folder, byName);
  }
  const sorted = [...files].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  for (const file of sorted) {
    if (path.posix.basename(file.rel).startsWith('zz_generated')) continue;
    const folderTypes = typesByFolder.get(path.posix.dirname(file.rel));
    if (!folderTypes) continue;
    for (const candidate of candidatesOf(file.sourceFile)) {
      const type = folderTypes.get(candidate.typeName);
      if (!type) continue;
      const position = file.lines.position(candidate.nameNode.getStart(file.sourceFile));
      const report = (message: string): void => {
        diagnostics.push({ position, message });
      };
      if (!candidate.signature) {
        report(`${candidate.functionName} is ${candidate.what}: a hand-written deep copy of ${type.name} must be a function (value: ${type.name}): ${type.name}`);
        continue;
      }
      if (!candidate.exported) {
        report(`hand-written ${candidate.functionName} is not exported: export it so the generated deep-copy code can call it (or rename it)`);
        continue;
      }
      const problem = signatureProblem(candidate);
      if (problem) {
        report(problem);
        continue;
      }
      const earlier = type.handWrittenDeepCopy;
      if (earlier) {
        report(`${candidate.functionName} is already written by hand in ${earlier.position.file}:${earlier.position.line}:${earlier.position.column}`);
        continue;
      }
      type.handWrittenDeepCopy = { file: file.rel, functionName: candidate.functionName, position };
    }
  }
}
