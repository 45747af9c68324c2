/**
 * Insertions into files the user owns, at `+kubebuilder:scaffold:<name>` marker lines (as kubebuilder
 * does): the fragment goes just above the marker with the marker's indentation, and a fragment already
 * present is not inserted again, so running a command twice changes nothing.
 */
import { ScaffoldPlan } from './plan.js';

/** Returns `text` with `fragment` above the marker line, or `text` unchanged when the fragment is there. */
export function insertAtMarker(text: string, markerName: string, fragment: string, file: string): string {
  const lines = text.split('\n');
  const marker = `+kubebuilder:scaffold:${markerName}`;
  const at = lines.findIndex((line) => line.includes(marker) && line.trim().replace(/^(\/\/|#)\s*/, '') === marker);
  if (at < 0) throw new MissingMarkerError(file, marker);
  const indent = /^\s*/.exec(lines[at]!)![0];
  const fragmentLines = fragment.replace(/\n$/, '').split('\n');
  if (containsLines(lines, fragmentLines)) return text;
  lines.splice(at, 0, ...fragmentLines.map((l) => (l === '' ? l : indent + l)));
  return lines.join('\n');
}

/** True when `needle` occurs as consecutive lines (compared without surrounding spaces). */
function containsLines(lines: string[], needle: string[]): boolean {
  const trimmed = lines.map((l) => l.trim());
  const want = needle.map((l) => l.trim());
  for (let i = 0; i + want.length <= trimmed.length; i++) {
    if (want.every((w, j) => trimmed[i + j] === w)) return true;
  }
  return false;
}

export class MissingMarkerError extends Error {
  constructor(file: string, marker: string) {
    super(`${file}: the "${marker}" marker line is missing; put it back where new entries should go`);
    this.name = 'MissingMarkerError';
  }
}

/** Plans an insertion into a file; a missing file or marker becomes a plan conflict. */
export function planInsertion(plan: ScaffoldPlan, path: string, markerName: string, fragment: string): void {
  const current = plan.read(path);
  if (current === undefined) {
    plan.conflict(`${path} is missing (it should have been made by \`kubeforge init\`)`);
    return;
  }
  try {
    plan.update(path, insertAtMarker(current, markerName, fragment, path));
  } catch (err) {
    if (err instanceof MissingMarkerError) plan.conflict(err.message);
    else throw err;
  }
}

/**
 * Uncomments consecutive `#`-commented lines (kubebuilder's edits of config/default when webhooks are
 * added); no change when they are active already, a conflict when neither form is there.
 */
export function planUncomment(plan: ScaffoldPlan, path: string, commentedLines: string[]): void {
  const current = plan.read(path);
  if (current === undefined) {
    plan.conflict(`${path} is missing (it should have been made by \`kubeforge init\`)`);
    return;
  }
  const lines = current.split('\n');
  const active = commentedLines.map((l) => l.replace(/^#/, ''));
  if (findBlock(lines, active) >= 0) return;
  const at = findBlock(lines, commentedLines);
  if (at < 0) {
    plan.conflict(`${path}: expected the lines "${commentedLines.join('\\n')}" to enable; restore them or enable by hand`);
    return;
  }
  active.forEach((line, i) => (lines[at + i] = line));
  plan.update(path, lines.join('\n'));
}

function findBlock(lines: string[], block: string[]): number {
  for (let i = 0; i + block.length <= lines.length; i++) if (block.every((b, j) => lines[i + j]!.trimEnd() === b)) return i;
  return -1;
}

/**
 * Uncomments the section under a label comment of a kustomization (kubeforge's `# [CERTMANAGER] …`
 * labels in config/default): the `#`-commented lines after the label, up to a blank line or the next
 * `# [` label. No change when the section is active already; a conflict when the label is gone.
 */
export function planUncommentSection(plan: ScaffoldPlan, path: string, label: string): void {
  const current = plan.read(path);
  if (current === undefined) {
    plan.conflict(`${path} is missing (it should have been made by \`kubeforge init\`)`);
    return;
  }
  const lines = current.split('\n');
  const at = lines.findIndex((line) => line.startsWith(label));
  if (at < 0) {
    plan.conflict(`${path}: expected the comment line "${label}…" above the lines to enable; restore it or enable them by hand`);
    return;
  }
  for (let i = at + 1; i < lines.length && lines[i]!.startsWith('#') && !lines[i]!.startsWith('# ['); i++) lines[i] = lines[i]!.slice(1);
  plan.update(path, lines.join('\n'));
}
