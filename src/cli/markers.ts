/**
 * `kubeforge markers [name]`: prints the marker catalogue grouped by category, like
 * `controller-gen crd -w`, or with a name the full help of that marker (with "did you mean" when the
 * name is unknown).
 */
import type { Command } from 'commander';
import { findMarkerDefinitions, markerCatalogue } from '../markers/catalogue.js';
import { formatMarkerDetails, formatMarkerSummary, markerHelpJson } from '../markers/help.js';
import { closestName } from '../markers/suggest.js';

/** The text `kubeforge markers [name]` prints, or an error message (exit status 1). */
export function markersCommandOutput(name?: string, category?: string, json = false): { stdout: string; stderr: string; exitCode: number } {
  const definitions = markerCatalogue().definitions;
  if (json) {
    const selected = name === undefined ? definitions : findMarkerDefinitions(name.replace(/^\+/, '').replace(/=.*$/, ''));
    const filtered = category ? selected.filter((d) => d.category.toLowerCase() === category.toLowerCase()) : selected;
    return { stdout: `${JSON.stringify(markerHelpJson(filtered), null, 2)}\n`, stderr: '', exitCode: 0 };
  }
  if (name === undefined) {
    const selected = category ? definitions.filter((d) => d.category.toLowerCase() === category.toLowerCase()) : definitions;
    if (selected.length === 0) {
      const categories = [...new Set(definitions.map((d) => d.category))].sort();
      return { stdout: '', stderr: `unknown category ${JSON.stringify(category)} (categories: ${categories.join(', ')})\n`, exitCode: 1 };
    }
    return { stdout: formatMarkerSummary(selected), stderr: '', exitCode: 0 };
  }
  const bare = name.replace(/^\+/, '').replace(/=.*$/, '');
  const found = findMarkerDefinitions(bare);
  if (found.length > 0) return { stdout: formatMarkerDetails(found), stderr: '', exitCode: 0 };
  const best = closestName(bare, new Set(definitions.map((d) => d.name)), Math.max(3, Math.floor(bare.length / 4)));
  const hint = best ? ` (did you mean "+${best.name}"?)` : '';
  return { stdout: '', stderr: `unknown marker "+${bare}"${hint}\n`, exitCode: 1 };
}

export function register(program: Command): void {
  program
    .command('markers')
    .description('list the markers kubeforge understands, grouped by category, or show the full help of one marker')
    .argument('[name]', 'a marker name, e.g. kubebuilder:validation:Minimum (with or without the leading +)')
    .option('-c, --category <category>', 'only list the markers of this category (e.g. "CRD validation", RBAC, Webhook)')
    .option('--json', 'print the catalogue as JSON (like controller-gen -wwww)')
    .action((name: string | undefined, options: { category?: string; json?: boolean }) => {
      const result = markersCommandOutput(name, options.category, options.json ?? false);
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      if (result.exitCode !== 0) process.exitCode = result.exitCode;
    });
}
