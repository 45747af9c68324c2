/**
 * The license header of made TypeScript files (kubebuilder's hack/boilerplate.go.txt): the Apache 2.0
 * notice with the year and owner, or nothing. `create` commands read it back from hack/boilerplate.ts.txt.
 */
import { render } from './render.js';

export const BOILERPLATE_PATH = 'hack/boilerplate.ts.txt';

export function boilerplateOf(license: 'none' | 'apache2', owner: string, year: number): string {
  return license === 'apache2' ? `${render('init/boilerplate', { owner, year }).trimEnd()}\n\n` : '';
}

/** The header as the project keeps it (empty when it has none); a blank line separates it from the code. */
export function projectBoilerplate(text: string | undefined): string {
  if (text === undefined || text.trim() === '') return '';
  return `${text.trimEnd()}\n\n`;
}
