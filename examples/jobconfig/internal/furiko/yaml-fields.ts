/**
 * Reads the fields of a YAML (or JSON) configuration document — Furiko's bootstrap file or one key of its
 * dynamic ConfigMap — keeping the line of each, so a bad value is reported with its place and field path
 * (`config.yaml:7: leaderElection.leaseDuration: expected a duration such as 30s, got "soon"`) and unknown
 * fields are rejected instead of silently ignored.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { parseGoDuration } from 'kubeforge/runtime';

/** A configuration that cannot be used; the message names the place, the field and the problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** How a line of the document is named in messages, e.g. `config.yaml:7` or `ConfigMap a/b data.cron line 7`. */
export type PlaceOf = (line: number) => string;

export class YamlFields {
  private constructor(
    private readonly placeOf: PlaceOf,
    private readonly lines: LineCounter,
    private readonly map: YAMLMap | undefined,
    private readonly path: string,
    private readonly line: number,
  ) {}

  /** Parses `text`; a syntax error or a document that is not a map is a ConfigError. Empty text reads as `{}`. */
  static parse(text: string, placeOf: PlaceOf): YamlFields {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
    const [syntax] = doc.errors;
    if (syntax) throw new ConfigError(`${placeOf(syntax.linePos?.[0].line ?? 1)}: ${syntax.message.split('\n')[0]}`);
    const root = doc.contents;
    if (root !== null && !(isScalar(root) && root.value === null) && !isMap(root)) {
      throw new ConfigError(`${placeOf(lineOf(lines, root) ?? 1)}: expected a map of fields`);
    }
    return new YamlFields(placeOf, lines, isMap(root) ? root : undefined, '', 1);
  }

  /** The error for `key` of this object, at its line. */
  error(key: string, problem: string): ConfigError {
    const pair = this.pair(key);
    const line = (pair && lineOf(this.lines, pair.key as Node)) ?? this.line;
    return new ConfigError(`${this.placeOf(line)}: ${this.fieldPath(key)}: ${problem}`);
  }

  /** Rejects fields other than `known`. */
  only(known: readonly string[]): void {
    for (const pair of this.map?.items ?? []) {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      if (!known.includes(key)) throw this.error(key, `unknown field (known: ${known.join(', ')})`);
    }
  }

  /** Whether this object is in the document (an absent or null one reads as empty). */
  get present(): boolean {
    return this.map !== undefined;
  }

  /** The nested object at `key` (an empty one when absent or null). */
  object(key: string): YamlFields {
    const node = this.node(key);
    if (node === undefined) return new YamlFields(this.placeOf, this.lines, undefined, this.fieldPath(key), this.line);
    if (!isMap(node)) throw this.error(key, `expected a map of fields, got ${describe(this.value(key))}`);
    return new YamlFields(this.placeOf, this.lines, node, this.fieldPath(key), lineOf(this.lines, node) ?? this.line);
  }

  string(key: string): string | undefined {
    const value = this.value(key);
    if (value === undefined || typeof value === 'string') return value;
    throw this.error(key, `expected a string, got ${describe(value)}`);
  }

  bool(key: string): boolean | undefined {
    const value = this.value(key);
    if (value === undefined || typeof value === 'boolean') return value;
    throw this.error(key, `expected true or false, got ${describe(value)}`);
  }

  /** A whole number, at least `min`. */
  integer(key: string, min = Number.MIN_SAFE_INTEGER): number | undefined {
    const value = this.value(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw this.error(key, `expected a whole number, got ${describe(value)}`);
    if (value < min) throw this.error(key, `must be at least ${min}, got ${value}`);
    return value;
  }

  /** One of `allowed` (a string). */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
    throw this.error(key, `expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`);
  }

  /** A Go duration (`30s`, `1m30s`, `500ms`, `10m`, `1h`) in milliseconds. */
  duration(key: string): number | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    let ms: number | undefined;
    try {
      ms = parseGoDuration(text); // kubeforge/runtime's: Go's time.ParseDuration
    } catch {
      ms = undefined;
    }
    if (ms === undefined || ms < 0) throw this.error(key, `expected a duration such as 30s or 1m30s, got ${JSON.stringify(text)}`);
    return ms;
  }

  private fieldPath(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  private pair(key: string): Pair | undefined {
    return this.map?.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === key);
  }

  private node(key: string): Node | undefined {
    const value = this.pair(key)?.value as Node | null | undefined;
    if (value === null || value === undefined || (isScalar(value) && value.value === null)) return undefined;
    return value;
  }

  /** The plain value at `key`; undefined when absent or null. */
  private value(key: string): unknown {
    const node = this.node(key);
    if (node === undefined) return undefined;
    return isScalar(node) ? node.value : node.toJSON();
  }
}

function lineOf(lines: LineCounter, node: Node | undefined): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : lines.linePos(start).line;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (value && typeof value === 'object') return 'a map';
  return `${typeof value} ${String(value)}`;
}
