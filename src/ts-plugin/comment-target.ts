/**
 * Which kind of node a comment at an offset belongs to, as the generator assigns comments: a comment inside an
 * interface body (above a property, or after the last one) is a field's; one above a top-level interface or type
 * alias is the type's; any other comment of an API file is the package's (e.g. `+groupName`), and every comment of
 * a controller file is read file-wide at package level (`+kubebuilder:rbac`). Completion offers only the markers
 * that may stand there.
 */
import type ts from 'typescript';
import type { MarkerTarget } from '../markers/types.js';
import type { GeneratorInput } from './marker-diagnostics.js';

export function commentTarget(typescript: typeof ts, source: ts.SourceFile, offset: number, input: GeneratorInput): MarkerTarget | undefined {
  if (input === 'controller') return 'package';
  for (const statement of source.statements) {
    if (offset < statement.pos) break;
    if (offset >= statement.end) continue;
    if (offset < statement.getStart(source)) {
      return typescript.isInterfaceDeclaration(statement) || typescript.isTypeAliasDeclaration(statement) ? 'type' : 'package';
    }
    if (typescript.isInterfaceDeclaration(statement)) return 'field';
    if (typescript.isTypeAliasDeclaration(statement) && typescript.isTypeLiteralNode(statement.type)) return 'field';
    return undefined;
  }
  return 'package';
}
