/**
 * `kubeforge dev`'s TypeScript build: the project's tsconfig.build.json compiled in this process with the
 * project's own `typescript`, as `tsc --watch` does it. Parsed files stay in memory between builds (only
 * files reported changed are read again) and a builder program re-checks and re-emits only the files a
 * change affects, so a one-file edit rebuilds in a fraction of a cold `tsc -p`. The first build starts
 * from the tsbuildinfo `tsc -b` left in dist/ (nothing is emitted again when nothing changed), and every
 * build writes it back, so `make build` after `make dev` finds the project up to date. Nothing is
 * emitted while there are errors (as `noEmitOnError`): the manager keeps running the last good build.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import type * as TypeScript from 'typescript';

export interface BuildOutcome {
  /** False when there are errors; nothing was emitted then. */
  ok: boolean;
  /** The errors, formatted as tsc prints them (empty when ok). */
  errorText: string;
  errorCount: number;
  /** Files written (JavaScript, source maps and the tsbuildinfo). */
  emitted: string[];
}

/** The project's `typescript` (its devDependency), as `make build` runs it. */
export function projectTypeScript(root: string): typeof TypeScript {
  return createRequire(join(root, 'package.json'))('typescript') as typeof TypeScript;
}

export class IncrementalCompiler {
  private readonly ts: typeof TypeScript;
  private readonly configPath: string;
  private readonly parsedFiles = new Map<string, TypeScript.SourceFile>();
  private builder: TypeScript.EmitAndSemanticDiagnosticsBuilderProgram | undefined;
  private configStale = true;
  private config: TypeScript.ParsedCommandLine | undefined;

  constructor(
    private readonly root: string,
    configFile = 'tsconfig.build.json',
    private readonly colours = false,
  ) {
    this.ts = projectTypeScript(root);
    this.configPath = resolve(root, configFile);
  }

  /** Forgets the parsed text of these files (changed, added or removed; root-relative or absolute). */
  invalidate(files: string[]): void {
    for (const file of files) {
      const path = this.ts.sys.resolvePath(isAbsolute(file) ? file : join(this.root, file));
      // A file added or removed changes the program's root files; a tsconfig change its options.
      if (!this.parsedFiles.has(path) || !existsSync(path) || !path.endsWith('.ts')) this.configStale = true;
      this.parsedFiles.delete(path);
    }
  }

  /** Forgets the parsed text of every file under a root-relative folder (after a generator wrote there). */
  invalidateFolder(folder: string): void {
    const prefix = `${this.ts.sys.resolvePath(join(this.root, folder))}/`;
    for (const path of [...this.parsedFiles.keys()]) if (path.startsWith(prefix)) this.parsedFiles.delete(path);
    this.configStale = true;
  }

  /** Compiles what changed since the last build; emits only when there are no errors. */
  build(): BuildOutcome {
    const ts = this.ts;
    const configDiagnostics: TypeScript.Diagnostic[] = [];
    if (this.configStale || this.config === undefined) {
      const parsed = ts.getParsedCommandLineOfConfigFile(this.configPath, {}, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => configDiagnostics.push(d),
      });
      if (parsed === undefined) return this.failure(configDiagnostics);
      this.config = parsed;
      this.configStale = false;
    }
    const config = this.config;
    const options = config.options;
    const host = ts.createIncrementalCompilerHost(options, ts.sys);
    const readSourceFile = host.getSourceFile.bind(host);
    // Unchanged files keep their SourceFile (and so their place in the builder's state): only what changed is parsed.
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreateNewSourceFile) => {
      const path = ts.sys.resolvePath(fileName);
      const kept = shouldCreateNewSourceFile ? undefined : this.parsedFiles.get(path);
      if (kept !== undefined) return kept;
      const parsed = readSourceFile(fileName, languageVersion, onError, shouldCreateNewSourceFile);
      if (parsed !== undefined) this.parsedFiles.set(path, parsed);
      return parsed;
    };
    const previous = this.builder ?? ts.readBuilderProgram(options, { useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames, getCurrentDirectory: () => this.root, readFile: ts.sys.readFile });
    this.builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(config.fileNames, options, host, previous, config.errors, config.projectReferences);
    const builder = this.builder;
    const diagnostics = [...configDiagnostics, ...builder.getConfigFileParsingDiagnostics(), ...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics(), ...builder.getSyntacticDiagnostics()];
    // As tsc: semantic errors only once the files parse.
    if (diagnostics.length === 0) diagnostics.push(...builder.getSemanticDiagnostics());
    const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) return this.failure(errors);
    const emitted: string[] = [];
    const result = builder.emit(undefined, (fileName, text, writeByteOrderMark) => {
      ts.sys.writeFile(fileName, text, writeByteOrderMark);
      emitted.push(fileName);
    });
    const emitErrors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (emitErrors.length > 0) return this.failure(emitErrors);
    return { ok: true, errorText: '', errorCount: 0, emitted };
  }

  private failure(diagnostics: readonly TypeScript.Diagnostic[]): BuildOutcome {
    const ts = this.ts;
    const formatHost: TypeScript.FormatDiagnosticsHost = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => this.root,
      getNewLine: () => '\n',
    };
    const errorText = this.colours ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost) : ts.formatDiagnostics(diagnostics, formatHost);
    return { ok: false, errorText, errorCount: diagnostics.length, emitted: [] };
  }
}
