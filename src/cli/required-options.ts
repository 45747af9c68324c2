/**
 * Required options that commander leaves to the command: marked "(required)" in `--help`, and checked in the
 * action, after commander has refused unknown options — so a mistyped `--verison` is reported as unknown
 * (with its suggestion), not as a missing `--version` — and together with every bad value of the others.
 */
import { Help, Option, type Command } from 'commander';

/** Required options, with an example value for the "not given" message. */
const requiredOptions = new WeakMap<Option, string>();

/** Adds `flags` as an option the action requires; `example` completes "e.g. --flag <example>". */
export function requiredOption(command: Command, flags: string, description: string, example: string): Command {
  const option = new Option(flags, description);
  requiredOptions.set(option, example);
  return command.addOption(option);
}

/** One message per required option of `command` that was not given: `--group: required (e.g. --group batch)`. */
export function missingRequiredOptions(command: Command): string[] {
  return command.options
    .filter((option) => requiredOptions.has(option) && command.getOptionValue(option.attributeName()) === undefined)
    .map((option) => `${option.long}: required, not given (e.g. ${option.long} ${requiredOptions.get(option)})`);
}

/** Help that ends a required option's description with "(required)". */
export const requiredOptionHelp: Partial<Help> = {
  optionDescription(option: Option): string {
    const text = new Help().optionDescription(option);
    return requiredOptions.has(option) ? `${text} (required)` : text;
  },
};
