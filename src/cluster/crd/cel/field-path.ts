/**
 * Checks a validation rule's `fieldPath` against the schema of the node the rule stands on, as
 * apiextensions' `ValidFieldPath` does at CRD creation: only `.name` and `['key']` steps, each naming a
 * declared property (or any key of a map). The reasons are ValidFieldPath's; apiextensions itself only
 * says `fieldPath must be a valid path`.
 */
type Schema = Record<string, unknown>;

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** Splits on '.', '[' and ']' (each its own token); a token opening with a quote runs to the closing quote. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let rest = path;
  while (rest.length > 0) {
    let end = rest.length;
    if (rest[0] === "'") {
      for (let i = 1; i < rest.length; i++) {
        if (rest[i] === "'" && rest[i - 1] !== '\\') {
          end = i + 1;
          break;
        }
      }
    } else if ('.[]'.includes(rest[0]!)) end = 1;
    else {
      const next = rest.search(/[.[\]]/);
      if (next > 0) end = next;
    }
    out.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return out;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_m, c: string) => {
    const replaced = escapes[c];
    if (replaced === undefined) throw new Error(`invalid string literal: invalid escape char \\${c}`);
    return replaced;
  });
}

/** The reason `fieldPath` does not name a field under `schema`, or undefined when it does. */
export function fieldPathProblem(fieldPath: string, schema: Schema): string | undefined {
  let node: Schema | undefined = schema;
  const step = (name: string): string | undefined => {
    if (node?.properties !== undefined && node.properties !== null) {
      node = (node.properties as Record<string, Schema | undefined>)[name];
      return node === undefined ? 'does not refer to a valid field' : undefined;
    }
    if (node?.additionalProperties !== undefined && node.additionalProperties !== false) {
      node = (typeof node.additionalProperties === 'object' ? node.additionalProperties : {}) as Schema;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const list = tokens(fieldPath);
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (token === '[') {
      const quoted = list[++i];
      if (quoted === undefined) return 'unexpected end of JSON path';
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return `expected single quoted string but got ${quoted}`;
      let name: string;
      try {
        name = unescape(quoted.slice(1, -1));
      } catch (err) {
        return (err as Error).message;
      }
      const problem = step(name);
      if (problem) return problem;
      const close = list[++i];
      if (close === undefined) return 'unexpected end of JSON path';
      if (close !== ']') return `expected ] but got ${close}`;
    } else if (token === '.') {
      const name = list[++i];
      if (name === undefined) return 'unexpected end of JSON path';
      const problem = step(name);
      if (problem) return problem;
    } else return `expected [ or . but got: ${token}`;
  }
  return undefined;
}
