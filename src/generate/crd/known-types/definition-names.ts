/**
 * Catalogue keys (`<group>/<version>.<Type>`, the module path of kubernetes-types or kubeforge/kubernetes plus
 * the type name) ↔ kube-apiserver's OpenAPI definition names (`io.k8s.api.core.v1.Taint`), for the Kubernetes
 * 1.32 definitions the local cluster serves (src/cluster/schemas/builtin-definitions.generated.ts) and the meta/v1
 * ones they do not reach (meta-v1-definitions.generated.ts).
 */
import { BUILTIN_DEFINITION_SOURCES } from '../../../cluster/schemas/builtin-definitions.generated.js';
import { META_V1_DEFINITION_SOURCES } from './meta-v1-definitions.generated.js';

/** Every definition the catalogue renders: the served ones, and the meta/v1 ones they do not reach. */
export function definitionSource(name: string): string | undefined {
  return BUILTIN_DEFINITION_SOURCES[name] ?? META_V1_DEFINITION_SOURCES[name];
}

/** The names of every definition the catalogue renders. */
export function definitionNames(): string[] {
  return [...Object.keys(BUILTIN_DEFINITION_SOURCES), ...Object.keys(META_V1_DEFINITION_SOURCES)];
}

/** Definition-name prefix → catalogue module path prefix; the part after the prefix is `<version>.<Type>`. */
const PREFIXES: [definitionPrefix: string, modulePrefix: string][] = [
  ['io.k8s.apimachinery.pkg.apis.meta.', 'meta/'],
  ['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.', 'apiextensions/'],
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.', 'apiregistration/'],
];

/** The catalogue key of a definition name, or undefined for a name outside k8s.io/api and meta/v1. */
export function keyOfDefinition(definition: string): string | undefined {
  if (definition === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return 'api/resource.Quantity';
  if (definition === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return 'util/intstr.IntOrString';
  for (const [definitionPrefix, modulePrefix] of PREFIXES) {
    if (definition.startsWith(definitionPrefix)) return versionAndType(modulePrefix, definition.slice(definitionPrefix.length));
  }
  const api = /^io\.k8s\.api\.([a-z0-9]+)\.(.+)$/.exec(definition);
  return api ? versionAndType(`${api[1]}/`, api[2]!) : undefined;
}

function versionAndType(modulePrefix: string, rest: string): string | undefined {
  const m = /^(v\d+(?:(?:alpha|beta)\d+)?)\.([A-Za-z0-9]+)$/.exec(rest);
  return m ? `${modulePrefix}${m[1]}.${m[2]}` : undefined;
}

let byKey: Map<string, string> | undefined;

/** catalogue key → definition name, for every served definition. */
export function definitionsByKey(): ReadonlyMap<string, string> {
  if (!byKey) {
    byKey = new Map();
    for (const definition of definitionNames()) {
      const key = keyOfDefinition(definition);
      if (key) byKey.set(key, definition);
    }
  }
  return byKey;
}
