/**
 * `kubeforge edit`: changes the settings of an existing project as kubebuilder's `edit` does — today the
 * multigroup layout (`--multigroup[=true|false]`) in PROJECT — and accepts `--plugins` for plugins that have
 * an edit step. As kubebuilder's, it moves no existing API: only later `create api` runs use the new layout.
 */
import { resolve } from 'node:path';
import { ScaffoldInputError } from './names.js';
import { ScaffoldPlan } from './plan.js';
import { PROJECT_LAYOUT, PROJECT_PATH, renderProjectFile, type ProjectConfig } from './project-file.js';
import { readProject } from './create-api-plan.js';

export interface EditOptions {
  root: string;
  multigroup?: boolean;
  plugins?: string;
}

/** Plugin keys `edit --plugins` accepts: the base layout (kubebuilder's `go/v4`), which has nothing more to add. */
const EDIT_PLUGINS = new Set([PROJECT_LAYOUT, 'ts/v1']);

export interface EditPlan {
  plan: ScaffoldPlan;
  /** What the edit means for the project, printed after the file list. */
  notes: string[];
}

function checkPlugins(value: string): void {
  const keys = value.split(',').map((k) => k.trim());
  const unknown = keys.find((k) => !EDIT_PLUGINS.has(k));
  if (unknown === undefined) return;
  const hint = unknown.startsWith('deploy-image') ? ' (deploy-image has no edit step; use it with `kubeforge create api --plugins`)' : '';
  throw new ScaffoldInputError('--plugins', value, `unknown plugin "${unknown}" for edit; edit supports ${PROJECT_LAYOUT}${hint}`);
}

export function planEdit(options: EditOptions): EditPlan {
  if (options.plugins !== undefined) checkPlugins(options.plugins);
  if (options.multigroup === undefined && options.plugins === undefined) {
    throw new Error('nothing to edit: pass --multigroup[=true|false] (or --plugins with a plugin that edits the project)');
  }
  const plan = new ScaffoldPlan(resolve(options.root));
  const config = readProject(plan);
  const notes: string[] = [];
  if (options.multigroup !== undefined) notes.push(...planMultigroup(plan, config, options.multigroup));
  else notes.push(`the project's layout is ${PROJECT_LAYOUT} already; nothing to change`);
  return { plan, notes };
}

function planMultigroup(plan: ScaffoldPlan, config: ProjectConfig, multigroup: boolean): string[] {
  const resources = config.resources ?? [];
  if ((config.multigroup ?? false) === multigroup) return [`${PROJECT_PATH} already has multigroup: ${multigroup}; nothing to change`];
  if (!multigroup) {
    const groups = [...new Set(resources.map((r) => r.group))].sort();
    if (groups.length > 1) {
      throw new ScaffoldInputError('--multigroup', 'false', `the project has APIs in ${groups.length} groups (${groups.join(', ')}); a single-group project has one`);
    }
  }
  const next: ProjectConfig = { ...config };
  if (multigroup) next.multigroup = true;
  else delete next.multigroup;
  plan.update(PROJECT_PATH, renderProjectFile(next));
  const layout = multigroup ? 'api/<group>/<version> and internal/controller/<group>' : 'api/<version> and internal/controller';
  const notes = [`new APIs go to ${layout}`];
  if (resources.length > 0) {
    notes.push(`the ${resources.length} existing API${resources.length === 1 ? ' stays' : 's stay'} where ${resources.length === 1 ? 'it is' : 'they are'}; move ${resources.length === 1 ? 'it' : 'them'} by hand if you want one layout (kubebuilder book: "Single Group to Multi-Group")`);
  }
  return notes;
}
