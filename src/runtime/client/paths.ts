/** REST paths of a kind's collection, object and subresources (/api/v1/…, /apis/group/version/…). */
import type { KindInfo } from './kinds.js';

export function resourcePath(info: KindInfo, namespace?: string, name?: string, subresource?: string): string {
  let path = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  if (info.namespaced && namespace) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${info.plural}`;
  if (name !== undefined) {
    if (!name) throw new Error(`${info.kind}: object has no metadata.name`);
    path += `/${encodeURIComponent(name)}`;
  }
  if (subresource) path += `/${subresource}`;
  return path;
}

/** `a=b,c=d` from a map, or the string as given. */
export function selectorString(selector: string | Record<string, string> | undefined): string | undefined {
  if (selector === undefined || typeof selector === 'string') return selector || undefined;
  const parts = Object.entries(selector).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(',') : undefined;
}
