/**
 * The API path of what `kubectl get <type> [name] [-l …] [--field-selector …] [-n …] -o json` reads, for tests that
 * read the cluster's state in-process instead of starting kubectl (about 0.05 CPU-s a start) when kubectl's
 * output is not what they test. The type resolves in the cluster's catalog (plural, singular, short name or
 * kind) to its group's preferred version; a type served by two groups is refused (name the path instead).
 */
import type { ResourceCatalog } from '../../src/cluster/registry/resource-catalog.js';
import type { ResourceType } from '../../src/cluster/registry/resource-type.js';

/**
 * The one resource type `name` means, in its group's preferred version: `resource[.version].group` names the
 * group; a short name served by the core group and another one is the core group's (kubectl's priority).
 */
function resolveType(catalog: ResourceCatalog, name: string): ResourceType {
  const [head, ...qualifier] = name.toLowerCase().split('.');
  const version = qualifier.length > 1 && /^v\d/.test(qualifier[0]) ? qualifier.shift() : undefined;
  const group = qualifier.length ? qualifier.join('.') : undefined;
  const named = catalog.all().filter((rt) => rt.resource === head || rt.singular === head || rt.kind.toLowerCase() === head || rt.shortNames.includes(head));
  const matches = named.filter((rt) => (group === undefined || rt.group === group) && (version === undefined || rt.version === version));
  const served = new Set(matches.map((rt) => rt.group));
  const groups = served.size > 1 && served.has('') ? [''] : [...served];
  if (groups.length !== 1) throw new Error(`resource type "${name}" is served by ${groups.length ? groups.join(', ') : 'no group'}: read its path instead`);
  const [chosen] = groups;
  const preferred = version ?? catalog.groups().find((g) => g.group === chosen)?.versions[0];
  const inGroup = matches.filter((rt) => rt.group === chosen);
  return inGroup.find((rt) => rt.version === preferred) ?? inGroup[0];
}

/** `args` as kubectl takes them (`['get', 'pods', '-l', 'app=web']`) → the GET path; the namespace is `default` unless `-n` names one. */
export function getPath(catalog: ResourceCatalog, args: string[]): string {
  const [verb, type, ...rest] = args;
  if (verb !== 'get' || !type) throw new Error(`not a kubectl get: ${args.join(' ')}`);
  let name: string | undefined;
  let namespace = 'default';
  const query = new URLSearchParams();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = rest[i + 1];
    if (arg === '-n' && value !== undefined) namespace = rest[++i];
    else if (arg === '-l' && value !== undefined) query.set('labelSelector', rest[++i]);
    else if (arg === '--field-selector' && value !== undefined) query.set('fieldSelector', rest[++i]);
    else if (!arg.startsWith('-') && name === undefined) name = arg;
    else throw new Error(`kubectl get argument "${arg}" is not read in-process: ${args.join(' ')}`);
  }
  const rt = resolveType(catalog, type);
  const base = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  const scope = rt.namespaced ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const item = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  const search = query.size ? `?${query}` : '';
  return `${base}${scope}/${rt.resource}${item}${search}`;
}
