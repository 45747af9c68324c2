/**
 * A Dockerfile performed without a container engine, for the image test (issue 15): its instructions are
 * parsed from the file and run in order — each stage's filesystem is a folder, COPY copies (from the build
 * context filtered by .dockerignore, or with --from from an earlier stage's folder), RUN runs through `sh`
 * in the stage's WORKDIR — and the last stage's USER and ENTRYPOINT are returned for the caller to start.
 * Only what a project's Dockerfile uses is understood (FROM … AS, WORKDIR, COPY [--from=], RUN, USER,
 * ENTRYPOINT [exec form]); anything else fails, naming the line. COPY --from hard-links an earlier stage's
 * files instead of copying them (same content and mode; an earlier stage is never run again): the
 * image's node_modules is 4 600 files, whose copies cost 2 s of CPU on this machine's file system.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** The instructions of a Dockerfile: comments and blank lines dropped, `\` continuations joined. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i].trim()}`;
    const match = /^(\S+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`Dockerfile:${start}: an instruction without arguments: ${line}`);
    instructions.push({ line: start, keyword: match[1].toUpperCase(), args: match[2] });
  }
  return instructions;
}

/** .dockerignore's patterns; `excluded(path)` as Docker decides it: the last pattern that matches wins. */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const negated = l.startsWith('!');
      const pattern = (negated ? l.slice(1) : l).replace(/^\/+/, '').replace(/\/+$/, '');
      const source = pattern.split('/').map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))).join('/');
      // A pattern naming a folder covers everything under it.
      return { negated, regex: new RegExp(`^${source}(/.*)?$`) };
    });
  return (path) => {
    let excluded = false;
    for (const rule of rules) if (rule.regex.test(path)) excluded = !rule.negated;
    return excluded;
  };
}

/** Copies the build context: every file of `project` that .dockerignore does not exclude. */
export function copyContext(project: string, context: string): void {
  const ignoreFile = join(project, '.dockerignore');
  const excluded = existsSync(ignoreFile) ? dockerignore(readFileSync(ignoreFile, 'utf8')) : () => false;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const abs = join(dir, entry);
      const rel = relative(project, abs);
      if (statSync(abs).isDirectory()) visit(abs);
      else if (!excluded(rel)) cpSync(abs, join(context, rel));
    }
  };
  mkdirSync(context, { recursive: true });
  visit(project);
}

/**
 * `from` (a file, a symbolic link or a folder) at `to` as hard links: folders made (merged into one that
 * exists, as COPY does), files linked in place of what is there, symbolic links written with their target as it is.
 */
function linkTree(from: string, to: string): void {
  const stat = lstatSync(from);
  if (!stat.isDirectory()) rmSync(to, { force: true });
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (!stat.isDirectory()) linkSync(from, to);
  else {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) linkTree(join(from, entry), join(to, entry));
  }
}

export interface Stage {
  name: string;
  /** The stage's filesystem root. */
  root: string;
  /** WORKDIR, as a path inside the image. */
  workdir: string;
  user?: string;
  entrypoint?: string[];
}

/** A path inside a stage's image, as a path on this machine. */
export function inStage(stage: Stage, path: string): string {
  return join(stage.root, path.startsWith('/') ? path : join(stage.workdir, path));
}

/**
 * Performs the Dockerfile's instructions with `context` as the build context, each stage in a folder under
 * `stagesDir`; `run` runs one RUN command (through `sh -c`, in the given folder) and throws when it fails.
 * Resolves to the stages, the last one being the image.
 */
export function performDockerfile(dockerfileText: string, context: string, stagesDir: string, run: (command: string, cwd: string, line: number) => void): Stage[] {
  const stages: Stage[] = [];
  const current = (i: Instruction): Stage => {
    const stage = stages[stages.length - 1];
    if (!stage) throw new Error(`Dockerfile:${i.line}: ${i.keyword} before FROM`);
    return stage;
  };
  for (const i of parseDockerfile(dockerfileText)) {
    switch (i.keyword) {
      case 'FROM': {
        const [, name] = /^\S+(?:\s+AS\s+(\S+))?$/i.exec(i.args) ?? [];
        const stage: Stage = { name: name ?? String(stages.length), root: join(stagesDir, `stage-${stages.length}`), workdir: '/' };
        mkdirSync(stage.root, { recursive: true });
        stages.push(stage);
        break;
      }
      case 'WORKDIR': {
        const stage = current(i);
        stage.workdir = i.args.startsWith('/') ? i.args : join(stage.workdir, i.args);
        mkdirSync(inStage(stage, '.'), { recursive: true });
        break;
      }
      case 'COPY': {
        const stage = current(i);
        const words = i.args.split(/\s+/);
        let from: Stage | undefined;
        while (words[0]?.startsWith('--')) {
          const flag = words.shift()!;
          const fromMatch = /^--from=(\S+)$/.exec(flag);
          if (!fromMatch) throw new Error(`Dockerfile:${i.line}: COPY ${flag} is not understood here`);
          from = stages.find((s) => s.name === fromMatch[1]);
          if (!from) throw new Error(`Dockerfile:${i.line}: COPY --from=${fromMatch[1]}: no such stage`);
        }
        const destination = words.pop()!;
        if (words.length === 0) throw new Error(`Dockerfile:${i.line}: COPY without a source`);
        for (const source of words) {
          const path = from ? inStage(from, source) : join(context, source);
          if (!existsSync(path)) throw new Error(`Dockerfile:${i.line}: COPY ${source}: not in the ${from ? `stage ${from.name}` : 'build context'}`);
          // A folder's contents go into the destination folder; a file into the folder (trailing /) or as the name.
          const target = inStage(stage, destination);
          const into = statSync(path).isDirectory() || destination.endsWith('/') || words.length > 1;
          const finalTarget = into && !statSync(path).isDirectory() ? join(target, source.split('/').pop()!) : target;
          mkdirSync(into ? target : join(target, '..'), { recursive: true });
          if (from) linkTree(path, finalTarget);
          else cpSync(path, finalTarget, { recursive: true, verbatimSymlinks: true });
        }
        break;
      }
      case 'RUN':
        run(i.args, inStage(current(i), '.'), i.line);
        break;
      case 'USER':
        current(i).user = i.args.trim();
        break;
      case 'ENTRYPOINT':
        current(i).entrypoint = JSON.parse(i.args) as string[];
        break;
      default:
        throw new Error(`Dockerfile:${i.line}: ${i.keyword} is not understood by this test's Dockerfile runner`);
    }
  }
  return stages;
}

/** A RUN runner: `sh -c <command>` in `cwd`, output inherited into the given log, failure thrown. */
export function shellRunner(env: NodeJS.ProcessEnv, log: string[]): (command: string, cwd: string, line: number) => void {
  return (command, cwd, line) => {
    const started = Date.now();
    const result = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 900_000 });
    log.push(`Dockerfile:${line}: RUN ${command} -> ${result.status} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (result.status !== 0) throw new Error(`Dockerfile:${line}: RUN ${command} exited ${result.status}:\n${(result.stdout + result.stderr).slice(-10_000)}`);
  };
}
