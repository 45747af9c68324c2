/**
 * Renders the handlebars templates under the package's `templates/` folder (one per made file) with the
 * values a plan computed. Templates are text, not HTML: nothing is escaped.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

/** `templates/` next to `src/` (or `dist/`) in this package. */
export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));

const handlebars = Handlebars.create();
// `{{> labels}}`: the app.kubernetes.io labels of kubebuilder's config files.
handlebars.registerPartial('labels', readFileSync(`${TEMPLATES_DIR}init/config/labels.hbs`, 'utf8'));

const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Renders `templates/<name>.hbs` with `values`; an unknown value name is an error, not an empty string. */
export function render(name: string, values: object): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(`${TEMPLATES_DIR}${name}.hbs`, 'utf8');
    template = handlebars.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(values);
}

/**
 * Renders a bundle template: one file holding several made files, each opening with a `---- <name>` line.
 * Returns the files by name, in order.
 */
export function renderBundle(name: string, values: object): Map<string, string> {
  const files = new Map<string, string>();
  let current: string | undefined;
  for (const line of render(name, values).split('\n')) {
    const header = /^---- (\S+)$/.exec(line);
    if (header) {
      current = header[1]!;
      files.set(current, '');
    } else if (current !== undefined) {
      files.set(current, `${files.get(current)}${line}\n`);
    }
  }
  for (const [file, content] of files) files.set(file, content.replace(/\n+$/, '\n'));
  return files;
}
