/**
 * ApiReader: parses project files with the TypeScript parser ts-morph bundles (syntax trees only, no Program,
 * no type checker), resolves type names through each file's declarations and imports, assigns comment lines
 * to packages, types and fields (Go's godoc / "closest block" rules), and converts interfaces and type aliases
 * into model NamedTypes. Used by loadApiProject (index.ts), which groups the result into API versions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import { findMarkerDefinitions } from '../markers/catalogue.js';
import { collectMarkers } from '../markers/collect.js';
import type { CommentLine, Diagnostic, Marker, MarkerTarget } from '../markers/types.js';
import type { Field, NamedType, TypeRef } from '../model/index.js';
import { commentLines, LineMap, normaliseDescription, splitLeadingBlocks, type CommentRange } from './comments.js';
import { findHandWrittenDeepCopies } from './hand-written-copies.js';
import { resolveModule, type ModuleTarget } from './imports.js';
import { typeRefOf, type NameResolution, type TypeRefContext } from './type-refs.js';

/**
 * True for a marker that exists at package level but not at type level (`+groupName`, `+kubebuilder:rbac`, …):
 * found in a type's separated comment block it goes to the package, as in controller-gen (§2.2).
 */
function isPackageOnlyMarker(text: string): boolean {
  const fullName = text.slice(1).split('=')[0]!.trim();
  const structName = fullName.includes(':') ? fullName.slice(0, fullName.lastIndexOf(':')) : fullName;
  for (const name of [fullName, structName]) {
    const defs = findMarkerDefinitions(name);
    if (defs.length > 0) return defs.some((d) => d.target === 'package') && !defs.some((d) => d.target === 'type');
  }
  return false;
}

type Declaration = TS.InterfaceDeclaration | TS.TypeAliasDeclaration;

interface LoadedFile {
  abs: string;
  rel: string;
  sourceFile: TS.SourceFile;
  lines: LineMap;
  declarations: Map<string, Declaration>;
  /** local name → { module specifier, imported name } ('*' for a namespace import). */
  imports: Map<string, { specifier: string; imported: string }>;
}

function hasExportModifier(node: TS.Node): boolean {
  return (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

export class ApiReader {
  readonly diagnostics: Diagnostic[] = [];
  readonly types: Record<string, NamedType> = {};
  private readonly files = new Map<string, LoadedFile>();
  private readonly pending: LoadedFile[] = [];
  /** Package-level markers per file (relative path). */
  readonly packageMarkers = new Map<string, Marker[]>();
  /** What each (file, module specifier) resolved to: a name used by many fields resolves its module once. */
  private readonly moduleTargets = new Map<string, ModuleTarget>();

  /**
   * `readText` gives a file's text (default: from disk); the editor plugin (src/ts-plugin) passes the text being
   * edited, not yet saved.
   */
  constructor(
    readonly root: string,
    private readonly readText: (abs: string) => string = (abs) => fs.readFileSync(abs, 'utf8'),
  ) {}

  /** Every file read so far, with the text it was read with. */
  inputTexts(): Map<string, string> {
    return new Map([...this.files].map(([abs, file]) => [abs, file.sourceFile.text]));
  }

  relative(abs: string): string {
    const rel = path.relative(this.root, abs);
    return rel.startsWith('..') || path.isAbsolute(rel) ? abs.split(path.sep).join('/') : rel.split(path.sep).join('/');
  }

  /** Parses a file once (syntax only) and queues it for conversion. */
  load(abs: string): LoadedFile {
    const existing = this.files.get(abs);
    if (existing) return existing;
    const text = this.readText(abs);
    // Comments are read from the text (comments.ts), so JSDoc is not parsed into nodes and no parent links are set.
    const sourceFile = ts.createSourceFile(
      abs,
      text,
      { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
      false,
      ts.ScriptKind.TS,
    );
    const rel = this.relative(abs);
    const file: LoadedFile = { abs, rel, sourceFile, lines: new LineMap(rel, text), declarations: new Map(), imports: new Map() };
    this.files.set(abs, file);
    this.reportSyntaxErrors(file);
    const importedAt = new Map<string, TS.Identifier[]>();
    for (const statement of sourceFile.statements) {
      if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
        const earlier = file.declarations.get(statement.name.text);
        // Two interfaces merge (TypeScript's declaration merging); a type alias shares its name with nothing.
        if (earlier && (ts.isTypeAliasDeclaration(earlier) || ts.isTypeAliasDeclaration(statement)))
          for (const name of [earlier.name, statement.name]) this.duplicateName(file, name, `Duplicate identifier '${name.text}'.`);
        file.declarations.set(statement.name.text, statement);
      } else if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const specifier = statement.moduleSpecifier.text;
        const bindings = statement.importClause?.namedBindings;
        const names = !bindings ? [] : ts.isNamespaceImport(bindings) ? [{ name: bindings.name, imported: '*' }] : bindings.elements.map((e) => ({ name: e.name, imported: (e.propertyName ?? e.name).text }));
        for (const { name, imported } of names) {
          file.imports.set(name.text, { specifier, imported });
          importedAt.set(name.text, [...(importedAt.get(name.text) ?? []), name]);
        }
      }
    }
    this.reportNameClashes(file, importedAt);
    this.pending.push(file);
    return file;
  }

  /**
   * One name declared twice in a file is an error, with tsc's message, instead of one declaration silently
   * winning: a name imported twice (from one module or two) is TS2300 at each import, an import clashing with a
   * type declared in the file is TS2440 at the import.
   */
  private reportNameClashes(file: LoadedFile, importedAt: Map<string, TS.Identifier[]>): void {
    for (const [name, identifiers] of importedAt) {
      if (identifiers.length > 1) for (const id of identifiers) this.duplicateName(file, id, `Duplicate identifier '${name}'.`);
      else if (file.declarations.has(name)) this.duplicateName(file, identifiers[0]!, `Import declaration conflicts with local declaration of '${name}'.`);
    }
  }

  private duplicateName(file: LoadedFile, name: TS.Identifier, message: string): void {
    this.diagnostics.push({ position: file.lines.position(name.getStart(file.sourceFile)), message });
  }

  private reportSyntaxErrors(file: LoadedFile): void {
    // parseDiagnostics is internal to the compiler but stable; it avoids building a Program just for syntax errors.
    const parseDiagnostics = (file.sourceFile as unknown as { parseDiagnostics?: TS.DiagnosticWithLocation[] }).parseDiagnostics;
    for (const d of parseDiagnostics ?? []) {
      this.diagnostics.push({
        position: file.lines.position(d.start),
        message: `syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
      });
    }
  }

  /** Resolves a type name used in `file`. */
  resolveName(file: LoadedFile, name: string, qualifier?: string): NameResolution {
    if (!qualifier) {
      const local = file.declarations.get(name);
      if (local) return { kind: 'named', id: `${file.rel}#${name}`, name };
    }
    const imported = file.imports.get(qualifier ?? name);
    if (!imported || (qualifier && imported.imported !== '*'))
      return { kind: 'error', message: `unknown type ${qualifier ? `${qualifier}.` : ''}${name}` };
    const exportedName = qualifier ? name : imported.imported;
    const target = this.resolveModuleOnce(file.abs, imported.specifier);
    switch (target.kind) {
      case 'kubeforge-api':
        return { kind: 'kubeforge-api', name: exportedName };
      case 'kubernetes-types':
        return { kind: 'kubernetes-types', modulePath: target.modulePath, name: exportedName };
      case 'unsupported':
        return { kind: 'error', message: target.reason };
      case 'file':
        return this.resolveExport(this.load(target.file), exportedName, 0);
    }
  }

  /** resolveModule, remembered for the read (the files it looks at do not change while it runs). */
  private resolveModuleOnce(fromFile: string, specifier: string): ModuleTarget {
    const key = `${fromFile}\0${specifier}`;
    let target = this.moduleTargets.get(key);
    if (target === undefined) {
      target = resolveModule(fromFile, specifier);
      this.moduleTargets.set(key, target);
    }
    return target;
  }

  /** Finds an exported declaration in a file, following `export ... from` re-exports. */
  private resolveExport(file: LoadedFile, name: string, depth: number): NameResolution {
    if (file.declarations.has(name)) return { kind: 'named', id: `${file.rel}#${name}`, name };
    if (file.imports.has(name)) return this.resolveName(file, name);
    if (depth < 8) {
      for (const statement of file.sourceFile.statements) {
        if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
        const clause = statement.exportClause;
        const named = clause && ts.isNamedExports(clause) ? clause.elements : undefined;
        const match = named?.find((n) => n.name.text === name);
        if (clause && !match) continue;
        const inner = match ? (match.propertyName ?? match.name).text : name;
        const target = this.resolveModuleOnce(file.abs, statement.moduleSpecifier.text);
        if (target.kind === 'kubeforge-api') return { kind: 'kubeforge-api', name: inner };
        if (target.kind === 'kubernetes-types') return { kind: 'kubernetes-types', modulePath: target.modulePath, name: inner };
        if (target.kind === 'file') {
          const r = this.resolveExport(this.load(target.file), inner, depth + 1);
          if (r.kind !== 'error') return r;
        }
      }
    }
    return { kind: 'error', message: `unknown type ${name} (not exported by ${file.rel})` };
  }

  /** Converts every queued file's declarations; files loaded while doing so are converted too. */
  convertPending(): void {
    while (this.pending.length > 0) this.convertFile(this.pending.shift()!);
  }

  /** Records the hand-written `deepCopy<Type>` functions of the files read on their types (after convertPending). */
  findHandWrittenDeepCopies(): void {
    findHandWrittenDeepCopies([...this.files.values()], this.types, this.diagnostics);
  }

  private comments(file: LoadedFile, node: TS.Node): CommentRange[] {
    return (ts.getLeadingCommentRanges(file.lines.text, node.pos) ?? []).map((r) => ({
      pos: r.pos,
      end: r.end,
      singleLine: r.kind === ts.SyntaxKind.SingleLineCommentTrivia,
    }));
  }

  private collect(lines: CommentLine[], target: MarkerTarget): { markers: Marker[]; description: string } {
    if (lines.length === 0) return { markers: [], description: '' };
    const result = collectMarkers(lines, target);
    this.diagnostics.push(...result.diagnostics);
    return { markers: result.markers, description: normaliseDescription(result.descriptionLines.map((l) => l.text)) };
  }

  /** Markers and description of a type or field, plus package-level lines found in its comment area. */
  private nodeComments(file: LoadedFile, node: TS.Node, target: 'type' | 'field'): { markers: Marker[]; description: string } {
    const text = file.lines.text;
    const { godoc, closest, earlier } = splitLeadingBlocks(text, this.comments(file, node), node.getStart(file.sourceFile));
    const closestLines = closest ? commentLines(file.lines, closest) : [];
    const packageLines: CommentLine[] = [];
    const ownLines: CommentLine[] = [];
    for (const line of closestLines) {
      const trimmed = line.text.trim();
      if (!trimmed.startsWith('+')) continue;
      if (target === 'type' && isPackageOnlyMarker(trimmed)) packageLines.push(line);
      else ownLines.push(line);
    }
    if (target === 'type') {
      for (const block of earlier) packageLines.push(...commentLines(file.lines, block));
      this.addPackageLines(file, packageLines);
    }
    const separated = this.collect(ownLines, target).markers;
    const doc = this.collect(godoc ? commentLines(file.lines, godoc) : [], target);
    return { markers: [...separated, ...doc.markers], description: doc.description };
  }

  private addPackageLines(file: LoadedFile, lines: CommentLine[]): void {
    const markerLines = lines.filter((l) => l.text.trim().startsWith('+'));
    if (markerLines.length === 0) return;
    const { markers } = this.collect(markerLines, 'package');
    const list = this.packageMarkers.get(file.rel) ?? [];
    list.push(...markers);
    this.packageMarkers.set(file.rel, list);
  }

  private convertFile(file: LoadedFile): void {
    const sf = file.sourceFile;
    for (const statement of sf.statements) {
      if (ts.isInterfaceDeclaration(statement)) this.convertInterface(file, statement);
      else if (ts.isTypeAliasDeclaration(statement)) this.convertAlias(file, statement);
      else this.addPackageLines(file, commentLines(file.lines, this.comments(file, statement)));
    }
    this.addPackageLines(file, commentLines(file.lines, this.comments(file, sf.endOfFileToken)));
  }

  private context(file: LoadedFile, owner: string): TypeRefContext {
    return {
      sourceFile: file.sourceFile,
      resolveName: (name, qualifier) => this.resolveName(file, name, qualifier),
      position: (node) => file.lines.position(node.getStart(file.sourceFile)),
      owner,
      diagnostics: this.diagnostics,
    };
  }

  private baseType(file: LoadedFile, decl: Declaration): Omit<NamedType, 'definition'> {
    const name = decl.name.text;
    const { markers, description } = this.nodeComments(file, decl, 'type');
    return {
      id: `${file.rel}#${name}`,
      name,
      file: file.rel,
      position: file.lines.position(decl.name.getStart(file.sourceFile)),
      description,
      markers,
      exported: hasExportModifier(decl),
    };
  }

  private convertAlias(file: LoadedFile, decl: TS.TypeAliasDeclaration): void {
    const base = this.baseType(file, decl);
    if (decl.typeParameters?.length) {
      this.diagnostics.push({ position: base.position, message: `type ${base.name}: generic types are not supported` });
      return;
    }
    const target = typeRefOf(this.context(file, `type ${base.name}`), decl.type);
    if (target) this.types[base.id] = { ...base, definition: { kind: 'alias', target } };
  }

  private embedOf(file: LoadedFile, typeName: string, heritage: TS.ExpressionWithTypeArguments): TypeRef | undefined {
    const expr = heritage.expression;
    const resolved =
      ts.isIdentifier(expr)
        ? this.resolveName(file, expr.text)
        : ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression)
          ? this.resolveName(file, expr.name.text, expr.expression.text)
          : ({ kind: 'error', message: 'unsupported expression' } as const);
    if (resolved.kind === 'named') return { kind: 'named', id: resolved.id, name: resolved.name };
    if (resolved.kind === 'kubernetes-types') return { kind: 'known', key: `${resolved.modulePath}.${resolved.name}` };
    if (resolved.kind === 'kubeforge-api' && resolved.name === 'TypeMeta') return { kind: 'known', key: 'meta/v1.TypeMeta' };
    this.diagnostics.push({
      position: file.lines.position(heritage.getStart(file.sourceFile)),
      message: `type ${typeName}: cannot extend ${heritage.getText(file.sourceFile)}${resolved.kind === 'error' ? `: ${resolved.message}` : ''}`,
    });
    return undefined;
  }

  private convertInterface(file: LoadedFile, decl: TS.InterfaceDeclaration): void {
    const base = this.baseType(file, decl);
    if (decl.typeParameters?.length) {
      this.diagnostics.push({ position: base.position, message: `type ${base.name}: generic types are not supported` });
      return;
    }
    const embeds: TypeRef[] = [];
    for (const clause of decl.heritageClauses ?? [])
      for (const heritage of clause.types) {
        const embed = this.embedOf(file, base.name, heritage);
        if (embed) embeds.push(embed);
      }
    const fields: Field[] = [];
    for (const member of decl.members) {
      if (!ts.isPropertySignature(member)) {
        this.diagnostics.push({
          position: file.lines.position(member.getStart(file.sourceFile)),
          message: `type ${base.name}: only properties are allowed in API types, found ${ts.SyntaxKind[member.kind]}`,
        });
        continue;
      }
      const field = this.convertField(file, base.name, member);
      if (field) fields.push(field);
    }
    this.types[base.id] = { ...base, definition: { kind: 'struct', embeds, fields } };
  }

  private convertField(file: LoadedFile, typeName: string, prop: TS.PropertySignature): Field | undefined {
    const nameNode = prop.name;
    const name = ts.isIdentifier(nameNode) || ts.isStringLiteral(nameNode) ? nameNode.text : nameNode.getText(file.sourceFile);
    const position = file.lines.position(nameNode.getStart(file.sourceFile));
    const { markers, description } = this.nodeComments(file, prop, 'field');
    if (!prop.type) {
      this.diagnostics.push({ position, message: `field "${name}" of ${typeName}: missing type annotation` });
      return undefined;
    }
    const type = typeRefOf(this.context(file, `field "${name}" of ${typeName}`), prop.type);
    if (!type) return undefined;
    return { name, optional: prop.questionToken !== undefined, type, description, markers, position };
  }
}
