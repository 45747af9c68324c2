/**
 * Checks every name a scaffold command takes (group, version, kind, domain, repo, project name, plural)
 * before anything is planned, and derives the names the templates use (plural, file stem, DNS group).
 * Every failure is a ScaffoldInputError naming the flag.
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

/** The repo is the npm package name of the made project (kubebuilder's Go module path). */
export function checkRepo(repo: string): void {
  if (!/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(repo) || repo.length > 214) {
    throw new ScaffoldInputError('--repo', repo, 'must be a valid npm package name: lower-case, no spaces, optionally @scope/name');
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
