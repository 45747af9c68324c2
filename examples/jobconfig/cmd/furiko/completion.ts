/**
 * Shell completion as cobra's (Furiko's CLI is cobra): `furiko completion bash|zsh` prints a script that
 * asks the CLI itself, `furiko __complete <words…> <partial word>`, for the candidates — one a line, then
 * `:<directive>` (4: no file completion). Candidates: subcommands, flags (`-…`), `-o` formats, and names
 * from the cluster as Furiko's completers give them: JobConfigs for `run`, `enable`, `disable`,
 * `get jobconfig` and `list job --for`, Jobs for `get job`, `kill` and `logs`.
 */
import type { Command, Option } from 'commander';
import { OUTPUT_FORMATS } from './printers.js';

/** The hidden command the scripts call (cobra's name). */
export const COMPLETE_COMMAND = '__complete';

/** cobra's ShellCompDirectiveNoFileComp. */
const NO_FILE_COMPLETION = 4;

/** Names from the cluster, read only when a completion needs them. */
export interface Completer {
  jobConfigs(): Promise<string[]>;
  jobs(): Promise<string[]>;
}

type NameSource = keyof Completer | 'shells' | 'formats';

/** What the positional argument of each command path completes to (single-argument commands complete once). */
const ARGUMENTS: Record<string, { source: NameSource; many: boolean }> = {
  run: { source: 'jobConfigs', many: false },
  enable: { source: 'jobConfigs', many: false },
  disable: { source: 'jobConfigs', many: false },
  'get jobconfig': { source: 'jobConfigs', many: true },
  'get job': { source: 'jobs', many: true },
  kill: { source: 'jobs', many: false },
  logs: { source: 'jobs', many: false },
  completion: { source: 'shells', many: false },
};

/** What the value of a flag completes to. */
const FLAG_VALUES: Record<string, NameSource> = { '--for': 'jobConfigs', '--output': 'formats' };

function allOptions(command: Command): readonly Option[] {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
  return options;
}

function findOption(command: Command, flag: string): Option | undefined {
  return allOptions(command).find((option) => option.long === flag || option.short === flag);
}

async function namesOf(source: NameSource, completer: Completer): Promise<string[]> {
  if (source === 'shells') return ['bash', 'zsh'];
  if (source === 'formats') return [...OUTPUT_FORMATS];
  return completer[source]().catch(() => []);
}

/** The `__complete` output for `words` (the command line after the program's name, the last word partial). */
export async function completeWords(program: Command, words: string[], completer: Completer): Promise<string> {
  const partial = words.at(-1) ?? '';
  let command = program;
  const path: string[] = [];
  let positionals = 0;
  let flagWanting: Option | undefined;
  for (const word of words.slice(0, -1)) {
    if (flagWanting) {
      flagWanting = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const option = findOption(command, word.split('=')[0]!);
      if (option && option.required && !word.includes('=')) flagWanting = option;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positionals === 0) {
      command = sub;
      path.push(sub.name());
    } else positionals++;
  }

  let candidates: string[] = [];
  if (flagWanting) {
    const source = FLAG_VALUES[flagWanting.long ?? ''];
    if (source) candidates = await namesOf(source, completer);
  } else if (partial.startsWith('-')) {
    candidates = allOptions(command).flatMap((option) => (option.long && !option.hidden ? [option.long] : []));
  } else if (command.commands.some((c) => !(c as Command & { _hidden?: boolean })._hidden)) {
    candidates = command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden && c.name() !== 'help').map((c) => c.name());
  } else {
    const argument = ARGUMENTS[path.join(' ')];
    if (argument && (argument.many || positionals === 0)) candidates = await namesOf(argument.source, completer);
  }
  const matching = [...new Set(candidates)].filter((candidate) => candidate.startsWith(partial)).sort();
  return `${matching.map((candidate) => `${candidate}\n`).join('')}:${NO_FILE_COMPLETION}\n`;
}

/** The completion script for `shell`, completing the command `name`; an Error naming the shells otherwise. */
export function completionScript(shell: string, name: string): string {
  const fn = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;
  if (shell === 'bash') {
    return `# bash completion for ${name}                                 -*- shell-script -*-
# Load it with: source <(${name} completion bash)
${fn}() {
    local cur="\${COMP_WORDS[COMP_CWORD]}"
    local IFS=$'\\n'
    local -a lines
    lines=($("\${COMP_WORDS[0]}" ${COMPLETE_COMMAND} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)) || return
    [[ \${#lines[@]} -gt 0 && \${lines[-1]} == :* ]] || return
    unset 'lines[-1]'
    COMPREPLY=($(compgen -W "\${lines[*]}" -- "$cur"))
}
complete -F ${fn} ${name}
`;
  }
  if (shell === 'zsh') {
    return `#compdef ${name}
# zsh completion for ${name}; load it with: source <(${name} completion zsh)
${fn}() {
    local -a lines
    lines=("\${(@f)$(\${words[1]} ${COMPLETE_COMMAND} "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
    [[ \${lines[-1]} == :* ]] || return 1
    compadd -- "\${(@)lines[1,-2]}"
}
compdef ${fn} ${name}
`;
  }
  throw new Error(`unsupported shell "${shell}": one of bash, zsh`);
}
