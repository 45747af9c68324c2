/**
 * Turns a TypeScript type annotation into a model TypeRef, resolving names through the file's own
 * declarations and its imports (no type checker). Everything the CRD mapping cannot express is reported as
 * a Diagnostic at the offending type expression, naming the field or type it belongs to.
 * Works on the compiler's syntax tree (ts-morph's bundled `ts`) for speed.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { Diagnostic } from '../markers/types.js';
import type { TypeRef } from '../model/index.js';
import { KUBEFORGE_API_TYPES } from './imports.js';

/** What a name resolves to in one file (supplied by the reader, which owns file loading). */
export type NameResolution =
  | { kind: 'named'; id: string; name: string }
  | { kind: 'kubeforge-api'; name: string }
  | { kind: 'kubernetes-types'; modulePath: string; name: string }
  | { kind: 'error'; message: string };

export interface TypeRefContext {
  sourceFile: TS.SourceFile;
  /** Resolves `Name` or `ns.Name` written in the current file. */
  resolveName(name: string, qualifier?: string): NameResolution;
  /** Position of a node, for diagnostics. */
  position(node: TS.Node): Diagnostic['position'];
  /** What the type belongs to, for messages: `field "spec" of CronJob` or `type Hosts`. */
  owner: string;
  diagnostics: Diagnostic[];
}

function fail(ctx: TypeRefContext, node: TS.Node, message: string): undefined {
  ctx.diagnostics.push({ position: ctx.position(node), message: `${ctx.owner}: ${message}` });
  return undefined;
}

function text(ctx: TypeRefContext, node: TS.Node): string {
  return node.getText(ctx.sourceFile);
}

/** The value of a literal type (`'a'`, `1`, `-1`, `true`), or undefined. */
function literalValue(node: TS.TypeNode): string | number | boolean | undefined {
  if (!ts.isLiteralTypeNode(node)) return undefined;
  const lit = node.literal;
  if (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit)) return lit.text;
  if (ts.isNumericLiteral(lit)) return Number(lit.text);
  if (lit.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (lit.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isPrefixUnaryExpression(lit) && lit.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(lit.operand))
    return -Number(lit.operand.text);
  return undefined;
}

function fromResolution(ctx: TypeRefContext, node: TS.Node, r: NameResolution): TypeRef | undefined {
  switch (r.kind) {
    case 'named':
      return { kind: 'named', id: r.id, name: r.name };
    case 'kubernetes-types':
      return { kind: 'known', key: `${r.modulePath}.${r.name}` };
    case 'kubeforge-api': {
      const t = KUBEFORGE_API_TYPES[r.name];
      if (!t) return fail(ctx, node, `"${r.name}" from kubeforge/api cannot be used in an API type`);
      if (t.kind === 'known') return { kind: 'known', key: t.key };
      return { kind: 'primitive', type: t.type, ...(t.format ? { format: t.format } : {}), alias: r.name };
    }
    case 'error':
      return fail(ctx, node, r.message);
  }
}

function fromTypeReference(ctx: TypeRefContext, node: TS.TypeReferenceNode): TypeRef | undefined {
  const typeName = node.typeName;
  const args = node.typeArguments ?? [];
  if (ts.isIdentifier(typeName)) {
    const name = typeName.text;
    if ((name === 'Array' || name === 'ReadonlyArray') && args.length === 1) {
      const items = typeRefOf(ctx, args[0]!);
      return items && { kind: 'array', items };
    }
    if (name === 'Record' && args.length === 2) {
      const key = args[0]!;
      if (key.kind !== ts.SyntaxKind.StringKeyword) return fail(ctx, key, `map keys must be strings, not ${text(ctx, key)}`);
      const values = typeRefOf(ctx, args[1]!);
      return values && { kind: 'map', values };
    }
    if (args.length > 0) return fail(ctx, node, `generic type ${text(ctx, node)} is not supported`);
    return fromResolution(ctx, node, ctx.resolveName(name));
  }
  if (ts.isIdentifier(typeName.left)) return fromResolution(ctx, node, ctx.resolveName(typeName.right.text, typeName.left.text));
  return fail(ctx, node, `unsupported type ${text(ctx, node)}`);
}

function fromUnion(ctx: TypeRefContext, node: TS.UnionTypeNode): TypeRef | undefined {
  const kept = node.types.filter((m) => m.kind !== ts.SyntaxKind.UndefinedKeyword);
  if (kept.some((m) => ts.isLiteralTypeNode(m) && m.literal.kind === ts.SyntaxKind.NullKeyword))
    return fail(ctx, node, `"null" in a union is not supported; use an optional property and +nullable instead`);
  if (kept.length === 1) return typeRefOf(ctx, kept[0]!);
  const values = kept.map(literalValue);
  if (values.every((v) => v !== undefined)) return { kind: 'enum', values: values as (string | number | boolean)[] };
  return fail(
    ctx,
    node,
    `union type ${text(ctx, node)} is not supported (only unions of literals, which become an enum; use IntOrString for int-or-string)`,
  );
}

function fromTypeLiteral(ctx: TypeRefContext, node: TS.TypeLiteralNode): TypeRef | undefined {
  const indexes = node.members.filter(ts.isIndexSignatureDeclaration);
  if (indexes.length === 1 && node.members.length === 1) {
    const index = indexes[0]!;
    const keyType = index.parameters[0]?.type;
    if (!keyType || keyType.kind !== ts.SyntaxKind.StringKeyword)
      return fail(ctx, keyType ?? index, `map keys must be strings, not ${keyType ? text(ctx, keyType) : 'unknown'}`);
    const values = typeRefOf(ctx, index.type);
    return values && { kind: 'map', values };
  }
  return fail(ctx, node, 'inline object types are not supported, use a named interface instead');
}

/** Converts a type annotation to a TypeRef, or records a Diagnostic and returns undefined. */
export function typeRefOf(ctx: TypeRefContext, node: TS.TypeNode): TypeRef | undefined {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { kind: 'primitive', type: 'string' };
    case ts.SyntaxKind.BooleanKeyword:
      return { kind: 'primitive', type: 'boolean' };
    case ts.SyntaxKind.NumberKeyword:
      return { kind: 'primitive', type: 'number' };
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
      return fail(ctx, node, `cannot generate schema for ${text(ctx, node)}; use JSONValue from kubeforge/api for free-form JSON, or an explicit type`);
  }
  if (ts.isParenthesizedTypeNode(node)) return typeRefOf(ctx, node.type);
  if (ts.isArrayTypeNode(node)) {
    const items = typeRefOf(ctx, node.elementType);
    return items && { kind: 'array', items };
  }
  if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) return typeRefOf(ctx, node.type);
  if (ts.isLiteralTypeNode(node)) {
    const value = literalValue(node);
    if (value === undefined) return fail(ctx, node, `unsupported literal type ${text(ctx, node)}`);
    return { kind: 'literal', value };
  }
  if (ts.isUnionTypeNode(node)) return fromUnion(ctx, node);
  if (ts.isTypeReferenceNode(node)) return fromTypeReference(ctx, node);
  if (ts.isTypeLiteralNode(node)) return fromTypeLiteral(ctx, node);
  if (ts.isTupleTypeNode(node)) return fail(ctx, node, `tuple type ${text(ctx, node)} is not supported; use an array`);
  if (ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node))
    return fail(ctx, node, `function type ${text(ctx, node)} cannot be part of an API type`);
  if (ts.isIntersectionTypeNode(node))
    return fail(ctx, node, `intersection type ${text(ctx, node)} is not supported; use an interface that extends the parts`);
  return fail(ctx, node, `unsupported type ${text(ctx, node)}`);
}
