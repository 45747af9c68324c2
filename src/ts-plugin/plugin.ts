/**
 * The TypeScript language-service plugin (`"plugins": [{ "name": "kubeforge/ts-plugin" }]` in a made project's
 * tsconfig.json): markers in the editor. In files the generator reads (api/**, internal/** of a kubeforge
 * project — a folder with a PROJECT file) it adds the diagnostics `kubeforge manifests` would give (with their
 * "did you mean" as a quick fix), completion of marker names and arguments inside `// +` comments, and hover help
 * from the marker catalogue. Everything else
 * is TypeScript's own answer. Work is cached per file version: after an edit the next diagnostics request reads
 * the API folder again (or the one controller file), completion and hover parse only the file's comments. An
 * error in the plugin is logged through tsserver's logger and TypeScript's answer is returned unchanged.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type ts from 'typescript';
import type { Diagnostic } from '../markers/types.js';
import { fileCommentRanges } from '../reader/file-markers.js';
import { ts as readerTypeScript } from '../reader/typescript.js';
import { commentTarget } from './comment-target.js';
import { markerAtOffset, type CommentSpan } from './marker-at-offset.js';
import { markerCompletions } from './marker-completions.js';
import { apiDiagnostics, controllerDiagnostics, generatorInputOf, projectApiFiles, type GeneratorInput } from './marker-diagnostics.js';
import { suggestedFix, type MarkerFix } from './marker-fixes.js';
import { markerHover } from './marker-hover.js';
import { KUBEFORGE_DIAGNOSTIC_CODE, toTsDiagnostic } from './ts-diagnostic.js';

export { KUBEFORGE_DIAGNOSTIC_CODE };

/**
 * The "did you mean" fix, offered twice: as a code fix of the diagnostic, and as a refactoring of kind `quickfix` at
 * the marker — VS Code asks code fixes only for the codes TypeScript itself knows, but shows such a refactoring
 * among the quick fixes.
 */
const FIX_NAME = 'kubeforgeMarkerSpelling';
const FIX_ACTION = 'correct';

interface FileState {
  version: string;
  text: string;
  diagnostics?: ts.Diagnostic[];
  /** For an API file: the versions of the API files its diagnostics were computed from. */
  diagnosticsKey?: string;
  comments?: CommentSpan[];
}

/** The diagnostics of a project's API files, for one version of each of them. */
interface ApiState {
  key: string;
  byFile: Map<string, Diagnostic[]>;
}

/** A project file the generator reads: its project root, root-relative path and what kind of input it is. */
interface GeneratorFile {
  root: string;
  rel: string;
  input: Exclude<GeneratorInput, undefined>;
}

/** The plugin module tsserver loads: `require('kubeforge/ts-plugin')(modules).create(info)`. */
export function kubeforgeTsPlugin(modules: { typescript: typeof ts }): ts.server.PluginModule {
  return {
    create: (info) => {
      try {
        return decorate(modules.typescript, info);
      } catch (err) {
        info.project.projectService.logger.info(`[kubeforge] plugin not enabled: ${(err as Error).stack ?? String(err)}`);
        return info.languageService;
      }
    },
  };
}

/** Which compiler the markers are read with: tsserver's own (handed over by ts-plugin/index.js) or a second one. */
function readerCompiler(typescript: typeof ts): string {
  const own = (readerTypeScript as unknown) === typescript;
  return `markers read with ${own ? "tsserver's own" : "kubeforge's bundled"} TypeScript ${readerTypeScript.version}`;
}

function decorate(typescript: typeof ts, info: ts.server.PluginCreateInfo): ts.LanguageService {
  const service = info.languageService;
  const host = info.languageServiceHost;
  const log = (message: string): void => info.project.projectService.logger.info(`[kubeforge] ${message}`);
  const files = new Map<string, FileState>();
  const apiProjects = new Map<string, ApiState>();
  const roots = new Map<string, string | undefined>();
  log(`plugin enabled for ${info.project.getProjectName()}; ${readerCompiler(typescript)}`);

  /** The folder holding PROJECT at or above `dir` (cached per folder). */
  const projectRoot = (dir: string): string | undefined => {
    if (roots.has(dir)) return roots.get(dir);
    const parent = path.dirname(dir);
    const root = existsSync(path.join(dir, 'PROJECT')) ? dir : parent === dir ? undefined : projectRoot(parent);
    roots.set(dir, root);
    return root;
  };

  const generatorFile = (fileName: string): GeneratorFile | undefined => {
    const root = projectRoot(path.dirname(fileName));
    if (root === undefined) return undefined;
    const rel = path.relative(root, fileName).split(path.sep).join('/');
    const input = generatorInputOf(rel);
    return input === undefined ? undefined : { root, rel, input };
  };

  const textOf = (fileName: string): string | undefined => {
    const snapshot = host.getScriptSnapshot(fileName);
    return snapshot?.getText(0, snapshot.getLength());
  };

  /** The file's state for its current version (a new version drops what was computed for the old one). */
  const stateOf = (fileName: string): FileState | undefined => {
    const version = host.getScriptVersion(fileName);
    const known = files.get(fileName);
    if (known?.version === version) return known;
    const text = textOf(fileName);
    if (text === undefined) return undefined;
    const state: FileState = { version, text };
    files.set(fileName, state);
    return state;
  };

  const commentsOf = (fileName: string, state: FileState): CommentSpan[] => {
    state.comments ??= fileCommentRanges(fileName, state.text).map((c) => ({
      pos: c.pos,
      end: c.end,
      singleLine: c.kind === typescript.SyntaxKind.SingleLineCommentTrivia,
    }));
    return state.comments;
  };

  /** The API diagnostics of the project at `root` for the current versions of its API files (cached per versions). */
  const apiStateOf = (root: string): ApiState => {
    const apiFiles = projectApiFiles(root);
    const key = apiFiles.map((f) => `${f}@${host.getScriptVersion(f)}`).join('\n');
    const known = apiProjects.get(root);
    if (known?.key === key) return known;
    const started = performance.now();
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of apiDiagnostics(root, apiFiles, (abs) => textOf(abs) ?? typescript.sys.readFile(abs) ?? '')) {
      byFile.set(d.position.file, [...(byFile.get(d.position.file) ?? []), d]);
    }
    log(`read ${apiFiles.length} API files of ${root} in ${(performance.now() - started).toFixed(1)} ms`);
    const state = { key, byFile };
    apiProjects.set(root, state);
    return state;
  };

  const markerDiagnostics = (fileName: string): ts.Diagnostic[] => {
    const file = generatorFile(fileName);
    const state = file && stateOf(fileName);
    if (!file || !state) return [];
    const sourceFile = (): ts.SourceFile | undefined => service.getProgram()?.getSourceFile(fileName);
    if (file.input === 'api') {
      const api = apiStateOf(file.root);
      if (state.diagnosticsKey !== api.key) {
        state.diagnostics = (api.byFile.get(file.rel) ?? []).map((d) => toTsDiagnostic(typescript, state.text, d, sourceFile()));
        state.diagnosticsKey = api.key;
      }
    } else {
      state.diagnostics ??= controllerDiagnostics(file.rel, state.text).map((d) => toTsDiagnostic(typescript, state.text, d, sourceFile()));
    }
    return state.diagnostics ?? [];
  };

  /** The fixes suggested by the file's kubeforge diagnostics that overlap [start, end]. */
  const fixesAt = (fileName: string, start: number, end: number): MarkerFix[] => {
    const state = generatorFile(fileName) && stateOf(fileName);
    if (!state) return [];
    return markerDiagnostics(fileName)
      .filter((d) => d.start !== undefined && d.start <= end && start <= d.start + (d.length ?? 0))
      .map((d) => suggestedFix(state.text, d.start!, typescript.flattenDiagnosticMessageText(d.messageText, '\n')))
      .filter((fix): fix is MarkerFix => fix !== undefined);
  };

  const textChangesOf = (fileName: string, fix: MarkerFix): ts.FileTextChanges[] => [
    { fileName, textChanges: [{ span: { start: fix.start, length: fix.length }, newText: fix.newText }] },
  ];

  /** Runs `work`; on an error logs it and gives TypeScript's own answer instead. */
  const guarded = <T>(what: string, fallback: () => T, work: () => T): T => {
    try {
      return work();
    } catch (err) {
      log(`${what} failed: ${(err as Error).stack ?? String(err)}`);
      return fallback();
    }
  };

  const proxy = Object.create(null) as ts.LanguageService;
  for (const key of Object.keys(service) as (keyof ts.LanguageService)[]) {
    const member = service[key];
    (proxy as unknown as Record<string, unknown>)[key] = typeof member === 'function' ? (...args: unknown[]) => (member as (...a: unknown[]) => unknown).apply(service, args) : member;
  }

  proxy.getSemanticDiagnostics = (fileName) => {
    const own = service.getSemanticDiagnostics(fileName);
    return guarded('diagnostics', () => own, () => {
      const started = performance.now();
      const extra = markerDiagnostics(fileName);
      const elapsed = performance.now() - started;
      if (elapsed > 50) log(`diagnostics of ${fileName} took ${elapsed.toFixed(0)} ms`);
      return extra.length === 0 ? own : [...own, ...extra];
    });
  };

  proxy.getCompletionsAtPosition = (fileName, position, options, formatting) => {
    const own = (): ts.WithMetadata<ts.CompletionInfo> | undefined => service.getCompletionsAtPosition(fileName, position, options, formatting);
    return guarded('completion', own, () => {
      const file = generatorFile(fileName);
      const state = file && stateOf(fileName);
      if (!file || !state) return own();
      const marker = markerAtOffset(state.text, commentsOf(fileName, state), position);
      if (!marker || position <= marker.start) return own();
      const source = service.getProgram()?.getSourceFile(fileName);
      const target = source ? commentTarget(typescript, source, position, file.input) : undefined;
      const found = markerCompletions(state.text.slice(marker.start + 1, position), target);
      const replacementSpan = { start: position - found.replaceLength, length: found.replaceLength };
      return {
        isGlobalCompletion: false,
        isMemberCompletion: false,
        isNewIdentifierLocation: true,
        entries: found.entries.map((e) => ({
          name: e.name,
          insertText: e.insertText,
          kind: e.kind === 'value' ? typescript.ScriptElementKind.keyword : typescript.ScriptElementKind.string,
          kindModifiers: e.deprecated ? typescript.ScriptElementKindModifier.deprecatedModifier : '',
          sortText: '0',
          replacementSpan,
          labelDetails: { description: e.summary },
        })),
      };
    });
  };

  proxy.getCompletionEntryDetails = (fileName, position, entryName, formatOptions, source, preferences, data) => {
    const own = (): ts.CompletionEntryDetails | undefined =>
      service.getCompletionEntryDetails(fileName, position, entryName, formatOptions, source, preferences, data);
    return guarded('completion details', own, () => {
      const state = generatorFile(fileName) && stateOf(fileName);
      const marker = state && markerAtOffset(state.text, commentsOf(fileName, state), position);
      const help = marker && markerHover(`+${entryName}`);
      if (!help) return own();
      return {
        name: entryName,
        kind: typescript.ScriptElementKind.string,
        kindModifiers: '',
        displayParts: [{ text: help.syntax, kind: 'text' }],
        documentation: [{ text: help.documentation, kind: 'markdown' }],
      };
    });
  };

  proxy.getQuickInfoAtPosition = (fileName, position, maximumLength) => {
    const own = (): ts.QuickInfo | undefined => service.getQuickInfoAtPosition(fileName, position, maximumLength);
    return guarded('hover', own, () => {
      const state = generatorFile(fileName) && stateOf(fileName);
      const marker = state && markerAtOffset(state.text, commentsOf(fileName, state), position);
      const help = marker && markerHover(marker.text);
      if (!marker || !help) return own();
      return {
        kind: typescript.ScriptElementKind.string,
        kindModifiers: '',
        textSpan: { start: marker.start, length: help.nameLength },
        displayParts: [{ text: help.syntax, kind: 'text' }],
        documentation: [{ text: help.documentation, kind: 'markdown' }],
      };
    });
  };

  proxy.getCodeFixesAtPosition = (fileName, start, end, errorCodes, formatOptions, preferences) => {
    if (!errorCodes.includes(KUBEFORGE_DIAGNOSTIC_CODE)) return service.getCodeFixesAtPosition(fileName, start, end, errorCodes, formatOptions, preferences);
    const others = errorCodes.filter((code) => code !== KUBEFORGE_DIAGNOSTIC_CODE);
    const own = others.length === 0 ? [] : service.getCodeFixesAtPosition(fileName, start, end, others, formatOptions, preferences);
    return guarded('code fixes', () => own, () => [
      ...own,
      ...fixesAt(fileName, start, end).map((fix) => ({ fixName: FIX_NAME, description: fix.description, changes: textChangesOf(fileName, fix) })),
    ]);
  };

  proxy.getSupportedCodeFixes = (fileName) => [...service.getSupportedCodeFixes(fileName), String(KUBEFORGE_DIAGNOSTIC_CODE)];

  proxy.getApplicableRefactors = (fileName, positionOrRange, preferences, triggerReason, kind, includeInteractive) => {
    const own = service.getApplicableRefactors(fileName, positionOrRange, preferences, triggerReason, kind, includeInteractive);
    return guarded('refactors', () => own, () => {
      const [start, end] = typeof positionOrRange === 'number' ? [positionOrRange, positionOrRange] : [positionOrRange.pos, positionOrRange.end];
      const fix = fixesAt(fileName, start, end)[0];
      if (!fix) return own;
      return [...own, { name: FIX_NAME, description: fix.description, actions: [{ name: FIX_ACTION, description: fix.description, kind: 'quickfix' }] }];
    });
  };

  proxy.getEditsForRefactor = (fileName, formatOptions, positionOrRange, refactorName, actionName, preferences, interactive) => {
    const own = (): ts.RefactorEditInfo | undefined =>
      service.getEditsForRefactor(fileName, formatOptions, positionOrRange, refactorName, actionName, preferences, interactive);
    if (refactorName !== FIX_NAME) return own();
    return guarded('refactor edits', own, () => {
      const [start, end] = typeof positionOrRange === 'number' ? [positionOrRange, positionOrRange] : [positionOrRange.pos, positionOrRange.end];
      const fix = fixesAt(fileName, start, end)[0];
      return fix ? { edits: textChangesOf(fileName, fix) } : undefined;
    });
  };

  return proxy;
}
