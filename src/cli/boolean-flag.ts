/**
 * kubebuilder's boolean flags: `--flag`, `--flag=true` or `--flag=false` (commander options declared
 * `--flag [bool]` with this parser).
 */
import { InvalidArgumentError } from 'commander';

export function parseBool(flag: string): (value: string) => boolean {
  return (value) => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new InvalidArgumentError(`${flag}: expected true or false, got "${value}"`);
  };
}
