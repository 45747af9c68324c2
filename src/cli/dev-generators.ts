/**
 * `make manifests` and `make generate` as `kubeforge dev` runs them: in its own process (the generator's
 * modules stay loaded between runs), with the flags the project's Makefile gives `$(KUBEFORGE) manifests`
 * (e.g. the CronJob tutorial's `--max-desc-len=0`), printing what was written and every error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planGenerate } from './generate.js';
import { finishGeneratorRun, type RunOutput } from './generator-run.js';
import { planManifests, type ManifestsOptions } from './manifests.js';

export type MakefileManifestsFlags = Omit<ManifestsOptions, 'root' | 'check'>;

const MANIFESTS_RECIPE = /^\t\$\(KUBEFORGE\) manifests(.*)$/m;

/** The options of the Makefile's `$(KUBEFORGE) manifests …` line; flags dev does not know are reported in `ignored`. */
export function makefileManifestsFlags(root: string): { flags: MakefileManifestsFlags; ignored: string[] } {
  const makefile = join(root, 'Makefile');
  const flags: MakefileManifestsFlags = {};
  const ignored: string[] = [];
  if (!existsSync(makefile)) return { flags, ignored };
  const words = (MANIFESTS_RECIPE.exec(readFileSync(makefile, 'utf8'))?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const [name, inline] = words[i]!.split(/=(.*)/s) as [string, string | undefined];
    const value = (): string => inline ?? words[++i] ?? '';
    const list = (): string[] => value().split(',');
    if (name === '--max-desc-len' && /^\d+$/.test(inline ?? words[i + 1] ?? '')) flags.maxDescLen = Number(value());
    else if (name === '--allow-dangerous-types') flags.allowDangerousTypes = true;
    else if (name === '--generate-embedded-object-meta') flags.generateEmbeddedObjectMeta = true;
    else if (name === '--strict-markers') flags.strictMarkers = true;
    else if (name === '--paths') flags.paths = list();
    else if (name === '--controller-paths') flags.controllerPaths = list();
    else ignored.push(words[i]!);
  }
  return { flags, ignored };
}

/** Runs `manifests` (and `generate` unless `manifestsOnly`); resolves to true when both succeeded. */
export async function runGenerators(root: string, flags: MakefileManifestsFlags, output: RunOutput, manifestsOnly = false): Promise<boolean> {
  const manifests = await finishGeneratorRun(await planManifests({ root, ...flags }), output);
  if (manifests !== 0 || manifestsOnly) return manifests === 0;
  return (await finishGeneratorRun(await planGenerate({ root, paths: flags.paths, strictMarkers: flags.strictMarkers }), output)) === 0;
}
