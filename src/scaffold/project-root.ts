/**
 * Finds the project a command works on: the nearest folder, from the given one up, that holds a PROJECT
 * file (as git finds .git); commands other than init refuse to run outside a project with one message.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PROJECT_PATH } from './project-file.js';

/** The nearest folder at or above `start` holding PROJECT, or undefined. */
export function findProjectRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, PROJECT_PATH))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** What every command says outside a project. */
export function noProjectMessage(start: string): string {
  return `no ${PROJECT_PATH} found in ${resolve(start)} or its parents; run \`kubeforge init\` first, or pass --root <project folder>`;
}
