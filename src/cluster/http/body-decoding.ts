/**
 * Decoding request bodies (JSON and YAML) with the limits and error texts of kube-apiserver 1.32's
 * serializers: encoding/json's nesting limit ("exceeded max depth"), sigs.k8s.io/yaml's
 * "error converting YAML to JSON: yaml: …" (alias bombs: "document contains excessive aliasing"), and
 * the handlers' "the object provided is unrecognized (must be of type …)" wrapping for object bodies.
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';

/**
 * The deepest nesting a body may have. encoding/json's scanner allows 10 000 levels; the local cluster
 * copies and walks objects recursively (copyObject, schema pruning, patches), which V8's stack holds
 * to a couple of thousand levels, so it refuses from 1 000 with the same message rather than fail with a
 * 500 further on. Real objects nest a few dozen levels.
 */
export const maxJsonNestingDepth = 1_000;
/** Aliases one YAML document may expand (the yaml package's guard against "billion laughs"). */
const maxYamlAliasCount = 100;

/** A body the serializer could not read; the message is what the decoder says (without the handler's wrapping). */
export class BodyDecodeError extends Error {}

/** Throws "exceeded max depth" when arrays/objects nest deeper than encoding/json allows (strings are skipped). */
export function checkJsonNesting(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxJsonNestingDepth) throw new BodyDecodeError('exceeded max depth');
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** JSON text to a value; errors as the meta factory words them ("couldn't get version/kind; json parse error: …"). */
export function decodeJsonText(text: string): unknown {
  try {
    checkJsonNesting(text);
    return JSON.parse(text);
  } catch (err) {
    throw new BodyDecodeError(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

/** YAML text to a value, as sigs.k8s.io/yaml's YAMLToJSON reports failures. */
export function decodeYamlText(text: string, options: { uniqueKeys?: boolean } = {}): unknown {
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: maxYamlAliasCount, ...(options.uniqueKeys ? { uniqueKeys: true } : {}) });
  } catch (err) {
    throw new BodyDecodeError(`error converting YAML to JSON: yaml: ${yamlErrorText(err)}`);
  }
  try {
    checkJsonNesting(JSON.stringify(value ?? null));
  } catch (err) {
    throw new BodyDecodeError(`error converting YAML to JSON: yaml: ${(err as Error).message}`);
  }
  return value;
}

function yamlErrorText(err: unknown): string {
  if (err instanceof YAMLParseError) {
    const line = err.linePos?.[0]?.line;
    const what = err.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
    return line !== undefined ? `line ${line}: ${what}` : what;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/alias count|resource exhaustion/i.test(message)) return 'document contains excessive aliasing';
  if (err instanceof RangeError) return 'exceeded max depth';
  return message;
}

/**
 * The 400 text of an object body that did not decode (the REST handlers' transformDecodeError): the
 * expected kind, the decoder's error, and the body's first 30 bytes (as text when it starts with `{`, else hex).
 */
export function unrecognizedObjectMessage(kind: string, error: string, body: Buffer): string {
  const head = body.subarray(0, 30);
  const summary = body.length === 0 ? '<empty>' : `${body[0] === 0x7b ? head.toString('utf8') : head.toString('hex')}${body.length > 30 ? ' ...' : ''}`;
  return `the object provided is unrecognized (must be of type ${kind}): ${error} (${summary})`;
}
