/**
 * The JSONPath subset printer columns and selectable fields use: `.a.b`, `.items[0].name`,
 * `.status.conditions[?(@.type=="Ready")].status`, and `{...}` wrappers.
 */

export function evaluateJsonPath(object: unknown, path: string): unknown {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  if (p.startsWith('$')) p = p.slice(1);
  const tokens = p.match(/\.[^.[\]]+|\[[^\]]*\]/g) ?? [];
  let nodes: unknown[] = [object];
  for (const t of tokens) {
    const next: unknown[] = [];
    for (const n of nodes) {
      if (t.startsWith('.')) {
        if (n && typeof n === 'object' && !Array.isArray(n)) {
          const v = (n as Record<string, unknown>)[t.slice(1)];
          if (v !== undefined) next.push(v);
        }
      } else if (Array.isArray(n)) {
        const inner = t.slice(1, -1);
        const filter = /^\?\(@\.([\w.]+)\s*==\s*["']?([^"']*)["']?\)$/.exec(inner);
        if (filter) {
          for (const item of n) if (String(evaluateJsonPath(item, `.${filter[1]}`)) === filter[2]) next.push(item);
        } else if (inner === '*') next.push(...n);
        else {
          const i = Number(inner);
          const v = n[i < 0 ? n.length + i : i];
          if (v !== undefined) next.push(v);
        }
      }
    }
    nodes = next;
  }
  return nodes[0];
}
