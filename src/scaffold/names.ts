/**
 * Checks every name a scaffold command takes (group, version, kind, domain, repo, project name, plural)
 * before anything is planned, and derives the names the templates use (plural, file stem, DNS group).
 * Every failure is a ScaffoldInputError naming the flag; `checkAll` runs several checks and reports every
 * failure at once (ScaffoldInputErrors), so a user fixes all their flags in one go.
 */
import { pluralize } from '../generate/crd/pluralize.js';

/** A bad flag value: the message starts with the flag, e.g. `--kind "cronJob": …`. */
export class ScaffoldInputError extends Error {
  constructor(
    readonly flag: string,
    value: string,
    problem: string,
  ) {
    super(`${flag} ${JSON.stringify(value)}: ${problem}`);
    this.name = 'ScaffoldInputError';
  }
}

/** Several bad flag values, reported together; `errors` keeps each one's own message. */
export class ScaffoldInputErrors extends Error {
  constructor(readonly errors: ScaffoldInputError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'ScaffoldInputErrors';
  }
}

/** The ScaffoldInputErrors of `checks` (each a check that throws one); other errors pass through. */
export function inputErrorsOf(checks: Array<() => void>): ScaffoldInputError[] {
  const errors: ScaffoldInputError[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (err) {
      if (!(err instanceof ScaffoldInputError)) throw err;
      errors.push(err);
    }
  }
  return errors;
}

/** Runs every check; throws the one failure, or ScaffoldInputErrors with all of them. */
export function checkAll(checks: Array<() => void>): void {
  const errors = inputErrorsOf(checks);
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new ScaffoldInputErrors(errors);
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** True for a DNS-1123 subdomain: dot-separated lower-case labels, at most 253 characters. */
export function isDns1123Subdomain(value: string): boolean {
  return value.length > 0 && value.length <= 253 && value.split('.').every((label) => label.length <= 63 && DNS1123_LABEL.test(label));
}

/** Words a kind may not be: TypeScript/JavaScript reserved and strict-mode words, Go keywords, and built-in TS type names. */
const RESERVED_KINDS = new Set(
  [
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in',
    'instanceof new null return super switch this throw true try typeof var void while with implements interface let package private',
    'protected public static yield any boolean number string symbol never unknown object bigint undefined type declare namespace module',
    'async await of chan defer fallthrough func go goto map range select struct',
    'Object Array String Number Boolean Symbol Function Promise Date Error Map Set Record Partial Required Readonly Pick Omit',
  ]
    .join(' ')
    .split(' ')
    .map((w) => w.toLowerCase()),
);

export function checkGroup(group: string): void {
  if (group === '') throw new ScaffoldInputError('--group', group, 'a group name is required (e.g. batch, ship)');
  if (!isDns1123Subdomain(group)) {
    throw new ScaffoldInputError('--group', group, 'must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit');
  }
}

export function checkVersion(version: string): void {
  if (!/^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/.test(version)) {
    throw new ScaffoldInputError('--version', version, 'must look like v1, v2, v1alpha1 or v2beta3 (v, a number, then optionally alpha|beta and a number)');
  }
}

export function checkKind(kind: string): void {
  if (/[/\\.\s]/.test(kind)) throw new ScaffoldInputError('--kind', kind, 'must not contain path characters, dots or spaces');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
    throw new ScaffoldInputError('--kind', kind, 'must be PascalCase: an upper-case letter, then letters and digits (e.g. CronJob)');
  }
  if (kind.length > 63) throw new ScaffoldInputError('--kind', kind, 'must be at most 63 characters');
  if (RESERVED_KINDS.has(kind.toLowerCase())) throw new ScaffoldInputError('--kind', kind, 'is a reserved word in TypeScript or Go; choose another name');
  if (kind.endsWith('List')) throw new ScaffoldInputError('--kind', kind, 'must not end in "List" (the List type is made for every kind)');
}

export function checkPlural(plural: string): void {
  if (!DNS1123_LABEL.test(plural) || plural.length > 63) {
    throw new ScaffoldInputError('--plural', plural, 'must be a lower-case DNS-1123 label (letters, digits and "-")');
  }
}

export function checkDomain(domain: string): void {
  if (!isDns1123Subdomain(domain)) {
    throw new ScaffoldInputError('--domain', domain, 'must be a DNS-1123 subdomain such as my.domain or example.com');
  }
}

const NPM_PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A Go module path as the kubebuilder book writes `--repo`: `my.domain/guestbook`, `github.com/org/project`. */
const MODULE_PATH = /^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)+$/;

function isNpmPackageName(name: string): boolean {
  return NPM_PACKAGE_NAME.test(name) && name.length <= 214;
}

/**
 * The npm package name of the made project from `--repo`: an npm name is kept; a Go module path (kubebuilder's
 * `--repo`) loses its host and keeps its owner as the scope — `github.com/org/project` → `@org/project`,
 * `my.domain/guestbook` → `guestbook` — lower-cased, other characters as "-". PROJECT keeps `--repo` as given.
 */
export function packageNameOf(repo: string): string {
  if (isNpmPackageName(repo) || !MODULE_PATH.test(repo)) {
    checkRepo(repo);
    return repo;
  }
  const clean = (part: string) => part.toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._~-]+|[._~-]+$/g, '');
  const parts = repo.split('/');
  const path = parts[0]!.includes('.') ? parts.slice(1) : parts;
  const name = path.length === 1 ? clean(path[0]!) : `@${clean(path[0]!)}/${path.slice(1).map(clean).join('-')}`;
  if (!isNpmPackageName(name)) {
    throw new ScaffoldInputError('--repo', repo, `maps to "${name}", which is no valid npm package name; pass an npm package name (lower-case, optionally @scope/name)`);
  }
  return name;
}

/** The repo is the npm package name of the made project, or a Go module path mapped to one (packageNameOf). */
export function checkRepo(repo: string): void {
  if (!isNpmPackageName(repo) && !MODULE_PATH.test(repo)) {
    throw new ScaffoldInputError('--repo', repo, 'must be a valid npm package name (lower-case, no spaces, optionally @scope/name) or a module path such as github.com/org/project');
  }
}

/** The project name becomes the namespace and name prefix, so it must be a DNS-1123 label. */
export function checkProjectName(name: string): void {
  if (!DNS1123_LABEL.test(name) || name.length > 63) {
    throw new ScaffoldInputError('--project-name', name, 'must be a DNS-1123 label: lower-case letters, digits and "-" (it names the namespace and resources)');
  }
}

/** A project name from a folder or repo name: the last path part, lower-cased, other characters as "-". */
export function projectNameFrom(source: string): string {
  const last = source.split('/').filter(Boolean).pop() ?? source;
  return last
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The resource name of a kind, exactly as `kubeforge manifests` derives it (controller-gen's flect rules). */
export function pluralOf(kind: string): string {
  return pluralize(kind).toLowerCase();
}

/** The API group a resource lives in: `<group>.<domain>` (kubebuilder's QualifiedGroup). */
export function qualifiedGroup(group: string, domain: string): string {
  return domain === '' ? group : `${group}.${domain}`;
}
