/**
 * Re-creates a reference operator's scaffold (examples/<name>) in a temporary folder with the CLI's own
 * commands in-process, and says which of the made files belong to the user and which to the scaffold.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { planInit } from '../../src/scaffold/init-plan.js';
import { runPlan } from '../../src/scaffold/run-plan.js';
import type { RunOutput } from '../../src/cli/generator-run.js';
import { CHECKOUT, createApi, createWebhook, tempProject } from '../scaffold/scaffold-harness.js';

export const EXAMPLES = join(CHECKOUT, 'examples');

/** The commands an example was made with (its README and PROJECT say the same). */
export interface ExampleRecipe {
  name: string;
  init: { domain: string; repo: string; projectName?: string };
  /** `create api` runs, in this order. */
  apis: ApiRecipe[];
  /** `create webhook` runs, in this order, after every `create api`. */
  webhooks?: (ApiRecipe & WebhookRecipe)[];
}

/** `create webhook`'s flags: admission webhooks, or a conversion webhook on the hub with its spokes. */
export interface WebhookRecipe {
  defaulting?: boolean;
  programmaticValidation?: boolean;
  conversion?: boolean;
  spoke?: string[];
}

export interface ApiRecipe {
  group: string;
  version: string;
  kind: string;
  /** `--plugins` and the plugin's flags (memcached: deploy-image/v1-alpha). */
  plugins?: string;
  image?: string;
  imageContainerCommand?: string;
  imageContainerPort?: string;
  runAsUser?: string;
}

// Which made files are the user's and which are generated from the user's code: the same rules
// `kubeforge alpha generate` carries files over by.
export { isUserEdited, isGeneratedOutput } from '../../src/scaffold/carry-over.js';

/** Every file under `root`, as sorted project-relative paths (node_modules and dist left out). */
export function listFiles(root: string): string[] {
  const files: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      const abs = join(dir, entry);
      if (statSync(abs).isDirectory()) visit(abs);
      else files.push(relative(root, abs));
    }
  };
  visit(root);
  return files.sort();
}

function collector(): { output: RunOutput; text: () => string } {
  const lines: string[] = [];
  return { output: { out: (l) => lines.push(l), err: (l) => lines.push(l) }, text: () => lines.join('\n') };
}

/** The year of the example's license header (hack/boilerplate.ts.txt), so a scaffold made next year still compares. */
function boilerplateYear(exampleRoot: string): number | undefined {
  const path = join(exampleRoot, 'hack/boilerplate.ts.txt');
  const year = existsSync(path) ? /Copyright (\d{4})/.exec(readFileSync(path, 'utf8'))?.[1] : undefined;
  return year === undefined ? undefined : Number(year);
}

/**
 * Runs `init` (with the example's license year), `create api` and `create webhook` as the example was
 * made, in a temporary folder named like the example (the default project name is the folder's name).
 * `kubeforgeDependency` is the package.json line to make (the example's committed one: what the CLI
 * writes for a project inside the checkout). Returns the made folder and a `remove()`.
 */
export async function remakeScaffold(recipe: ExampleRecipe, kubeforgeDependency: string): Promise<{ root: string; remove(): void }> {
  const project = tempProject(recipe.name);
  const root = project.root;
  const saved = process.env.KUBEFORGE_DEPENDENCY;
  process.env.KUBEFORGE_DEPENDENCY = kubeforgeDependency;
  try {
    const initRun = collector();
    const year = boilerplateYear(join(EXAMPLES, recipe.name));
    // runInit's plan with the year pinned; `kubeforge init` itself takes this year.
    const { code } = runPlan('init', () => planInit({ root, ...recipe.init, year }), false, initRun.output);
    if (code !== 0) throw new Error(`kubeforge init for ${recipe.name} failed:\n${initRun.text()}`);
    for (const apiRecipe of recipe.apis) {
      const api = await createApi(root, apiRecipe);
      if (api.code !== 0) throw new Error(`kubeforge create api (${apiRecipe.kind}) for ${recipe.name} failed:\n${api.out}\n${api.err}`);
    }
    for (const webhookRecipe of recipe.webhooks ?? []) {
      const webhook = await createWebhook(root, webhookRecipe);
      if (webhook.code !== 0) throw new Error(`kubeforge create webhook (${webhookRecipe.kind}) for ${recipe.name} failed:\n${webhook.out}\n${webhook.err}`);
    }
  } catch (err) {
    project.remove();
    throw err;
  } finally {
    if (saved === undefined) delete process.env.KUBEFORGE_DEPENDENCY;
    else process.env.KUBEFORGE_DEPENDENCY = saved;
  }
  return { root, remove: () => project.remove() };
}
