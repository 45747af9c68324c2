/**
 * Import resolution for the reader without the type checker: maps a module specifier written in an api file
 * to what it stands for — kubeforge's own `kubeforge/api` aliases, a `kubernetes-types/<group>/<version>` or
 * `kubeforge/kubernetes/<group>/<version>` module (both resolved through the known-types catalogue, by
 * `<group>/<version>.<Type>`), or another project file to read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type ModuleTarget =
  | { kind: 'kubeforge-api' }
  | { kind: 'kubernetes-types'; modulePath: string }
  | { kind: 'file'; file: string }
  | { kind: 'unsupported'; reason: string };

const kubeforgeApiFileCache = new Map<string, boolean>();

/** True when `file` is kubeforge's api module (src/api/index.ts or its built .d.ts), recognised by its header. */
function isKubeforgeApiFile(file: string): boolean {
  let known = kubeforgeApiFileCache.get(file);
  if (known === undefined) {
    const base = path.basename(file);
    known =
      (base === 'index.ts' || base === 'index.d.ts') &&
      path.basename(path.dirname(file)) === 'api' &&
      fs.readFileSync(file, 'utf8').slice(0, 400).includes('kubeforge/api');
    kubeforgeApiFileCache.set(file, known);
  }
  return known;
}

/** Finds the .ts file a relative specifier (`./x.js`, `../y`, `./dir`) points at, or undefined. */
export function resolveRelativeFile(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|ts|mjs|mts|d\.ts)$/, '');
  const candidates = [`${stem}.ts`, `${stem}.mts`, `${stem}.d.ts`, path.join(base, 'index.ts'), path.join(base, 'index.d.ts')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** Classifies a module specifier seen in `fromFile`. */
export function resolveModule(fromFile: string, specifier: string): ModuleTarget {
  if (specifier === 'kubeforge/api' || specifier === 'kubeforge/api/index.js') return { kind: 'kubeforge-api' };
  const k8s = /^kubernetes-types\/(.+?)(\.js|\.d\.ts)?$/.exec(specifier);
  if (k8s) return { kind: 'kubernetes-types', modulePath: k8s[1]! };
  const kubeforgeKubernetes = /^kubeforge\/kubernetes\/(.+?)(\.js|\.d\.ts)?$/.exec(specifier);
  if (kubeforgeKubernetes) return { kind: 'kubernetes-types', modulePath: kubeforgeKubernetes[1]! };
  if (specifier.startsWith('.')) {
    const file = resolveRelativeFile(fromFile, specifier);
    if (!file) return { kind: 'unsupported', reason: `cannot find module "${specifier}"` };
    if (isKubeforgeApiFile(file)) return { kind: 'kubeforge-api' };
    return { kind: 'file', file };
  }
  return {
    kind: 'unsupported',
    reason: `types from "${specifier}" are not supported in API types (use kubeforge/api, kubeforge/kubernetes/<group>/<version>, kubernetes-types/<group>/<version> or a project file)`,
  };
}

/** The kubeforge/api exports and what each stands for in the model. */
export const KUBEFORGE_API_TYPES: Record<
  string,
  | { kind: 'primitive'; type: 'string' | 'integer' | 'number'; format?: 'int32' | 'int64' | 'byte' }
  | { kind: 'known'; key: string }
> = {
  int32: { kind: 'primitive', type: 'integer', format: 'int32' },
  int64: { kind: 'primitive', type: 'integer', format: 'int64' },
  int: { kind: 'primitive', type: 'integer' },
  float32: { kind: 'primitive', type: 'number' },
  float64: { kind: 'primitive', type: 'number' },
  bytes: { kind: 'primitive', type: 'string', format: 'byte' },
  Time: { kind: 'known', key: 'meta/v1.Time' },
  MicroTime: { kind: 'known', key: 'meta/v1.MicroTime' },
  Duration: { kind: 'known', key: 'meta/v1.Duration' },
  Quantity: { kind: 'known', key: 'api/resource.Quantity' },
  IntOrString: { kind: 'known', key: 'util/intstr.IntOrString' },
  RawExtension: { kind: 'known', key: 'runtime.RawExtension' },
  JSONValue: { kind: 'known', key: 'apiextensions/v1.JSON' },
  Fields: { kind: 'known', key: 'meta/v1.Fields' },
  ObjectMeta: { kind: 'known', key: 'meta/v1.ObjectMeta' },
  ListMeta: { kind: 'known', key: 'meta/v1.ListMeta' },
  Condition: { kind: 'known', key: 'meta/v1.Condition' },
};
