/**
 * CEL cost estimation in the shape of cel-go's checker (costs per AST node, comprehension bodies
 * multiplied by the range size, string work scaled by 0.1 per character) with Kubernetes' size model:
 * strings, lists and maps are as long as maxLength/maxItems/maxProperties allow, or as the 3 MiB
 * request bound allows when unbounded. The same walk, fed the sizes of an actual object, gives the
 * runtime cost used against the per-call limit and the per-object budget.
 */
import { maxRequestSizeBytes } from './cost-limits.js';
import { escapePropertyName } from './declared-types.js';
import { schemaSizes, type Range, type SizeOf } from './size-model.js';

export type { Range, SizeOf } from './size-model.js';
export { cardinalityFactor, measuredSizes } from './size-model.js';

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

type Kind = 'string' | 'bytes' | 'list' | 'map' | 'object' | 'scalar' | 'dyn';

interface Info {
  cost: Range;
  kind?: Kind;
  size?: Range;
  /** The schema node the value comes from, when it is (part of) self or oldSelf. */
  schema?: Schema;
  /** What iterating the value yields, for values built inside the expression. */
  elem?: Info;
}
interface Node {
  op: string;
  /** Operator-specific: a literal, a name, or the operand nodes (read per operator below). */
  args: unknown;
}

const fixed = (n: number): Range => ({ min: n, max: n });
const add = (...rs: Range[]): Range => rs.reduce((a, b) => ({ min: a.min + b.min, max: a.max + b.max }), fixed(0));
const mul = (a: Range, b: Range): Range => ({ min: a.min * b.min, max: a.max * b.max });
const byFactor = (r: Range, f: number): Range => ({ min: Math.ceil(r.min * f), max: Math.ceil(r.max * f) });
const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const traversal = 0.1;
const regexFactor = 0.25;
function kindOf(s: Schema | undefined): Kind {
  if (!isObject(s) || s['x-kubernetes-int-or-string'] === true) return 'dyn';
  if (s.type === 'string') return s.format === 'byte' ? 'bytes' : s.format === 'date-time' || s.format === 'date' || s.format === 'duration' ? 'scalar' : 'string';
  if (s.type === 'array') return 'list';
  if (s.type === 'object') return isObject(s.properties) && Object.keys(s.properties).length > 0 ? 'object' : s['x-kubernetes-preserve-unknown-fields'] === true && !s.additionalProperties ? 'dyn' : 'map';
  return 'scalar';
}

function childSchema(s: Schema | undefined, field: string): Schema | undefined {
  if (!isObject(s)) return undefined;
  if (isObject(s.properties)) {
    for (const [prop, child] of Object.entries(s.properties as Schema)) if (escapePropertyName(prop) === field || prop === field) return child as Schema;
  }
  if (field === 'metadata' || field === 'apiVersion' || field === 'kind') return field === 'metadata' ? { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } } : { type: 'string' };
  return isObject(s.additionalProperties) ? s.additionalProperties : undefined;
}

/** The estimator over one cel-js AST. */
class Coster {
  private readonly scopes = new Map<string, Info[]>();

  constructor(
    private readonly selfSchema: Schema,
    private readonly sizeOf: SizeOf,
  ) {}

  fromSchema(s: Schema | undefined, cost: Range): Info {
    if (!isObject(s)) return { cost, kind: 'dyn' };
    const kind = kindOf(s);
    return { cost, kind, schema: s, size: kind === 'scalar' ? fixed(1) : this.sizeOf(s) };
  }

  /** What one iteration variable of a comprehension over `range` holds. */
  element(range: Info): Info {
    if (range.elem) return { ...range.elem, cost: fixed(0) };
    const s = range.schema;
    if (isObject(s) && s.type === 'array') return this.fromSchema(isObject(s.items) ? s.items : undefined, fixed(0));
    if (isObject(s) && range.kind === 'map') return { cost: fixed(0), kind: 'string', size: { min: 0, max: maxRequestSizeBytes - 2 } };
    return { cost: fixed(0), kind: 'dyn' };
  }

  walk(n: Node): Info {
    switch (n.op) {
      case 'value':
        return this.literal(n.args);
      case 'id': {
        const scoped = this.scopes.get(n.args as string)?.at(-1);
        if (scoped) return { ...scoped, cost: fixed(1) };
        if (n.args === 'self' || n.args === 'oldSelf') return this.fromSchema(this.selfSchema, fixed(1));
        return { cost: fixed(1) };
      }
      case '.':
      case '.?': {
        const [target, field] = n.args as [Node, string];
        const operand = this.walk(target);
        return this.fromSchema(childSchema(operand.schema, field), add(operand.cost, fixed(1)));
      }
      case 'list': {
        const items = (n.args as Node[]).map((e) => this.walk(e));
        const elem = items.reduce<Info | undefined>((u, i) => (u ? { ...u, size: union(u.size ?? fixed(1), i.size ?? fixed(1)) } : i), undefined);
        return { cost: add(fixed(10), ...items.map((i) => i.cost)), kind: 'list', size: fixed(items.length), ...(elem ? { elem } : {}) };
      }
      case 'map': {
        const entries = (n.args as Node[][]).flatMap((pair) => pair.map((e) => this.walk(e)));
        return { cost: add(fixed(30), ...entries.map((i) => i.cost)), kind: 'map', size: fixed(entries.length / 2) };
      }
      case '!_':
      case '-_':
        return { cost: add(fixed(1), this.walk(n.args as Node).cost), kind: 'scalar' };
      case '&&':
      case '||': {
        const [l, r] = (n.args as Node[]).map((a) => this.walk(a)) as [Info, Info];
        return { cost: { min: l.cost.min, max: l.cost.max + r.cost.max }, kind: 'scalar' };
      }
      case '?:': {
        const [c, t, f] = (n.args as Node[]).map((a) => this.walk(a)) as [Info, Info, Info];
        const size = t.size && f.size ? union(t.size, f.size) : (t.size ?? f.size);
        return { cost: add(c.cost, union(t.cost, f.cost)), kind: t.kind ?? f.kind, ...(size ? { size } : {}), ...(t.schema ? { schema: t.schema } : {}) };
      }
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const [l, r] = (n.args as Node[]).map((a) => this.walk(a)) as [Info, Info];
        const smallest = Math.min((l.size ?? fixed(1)).max, (r.size ?? fixed(1)).max);
        return { cost: add(l.cost, r.cost, byFactor({ min: smallest > 0 ? 1 : 0, max: smallest }, traversal)), kind: 'scalar' };
      }
      case '+': {
        const [l, r] = (n.args as Node[]).map((a) => this.walk(a)) as [Info, Info];
        const kind = l.kind === 'dyn' ? r.kind : l.kind;
        if ((kind === 'string' || kind === 'bytes' || kind === 'list') && l.size && r.size) {
          const size = add(l.size, r.size);
          const own = kind === 'list' ? fixed(1) : byFactor(size, traversal);
          return { cost: add(l.cost, r.cost, own), kind, size, ...(l.elem ? { elem: l.elem } : {}) };
        }
        return { cost: add(l.cost, r.cost, fixed(1)), kind: kind ?? 'scalar' };
      }
      case 'in': {
        const [l, r] = (n.args as Node[]).map((a) => this.walk(a)) as [Info, Info];
        const own = r.kind === 'list' ? (r.size ?? fixed(1)) : fixed(1);
        return { cost: add(l.cost, r.cost, own), kind: 'scalar' };
      }
      case '[]':
      case '[?]': {
        const [t, i] = (n.args as Node[]).map((a) => this.walk(a)) as [Info, Info];
        const key = (n.args as Node[])[1];
        const s = t.schema;
        const child = isObject(s) ? (s.type === 'array' ? s.items : key?.op === 'value' && typeof key.args === 'string' ? childSchema(s, key.args) : s.additionalProperties) : undefined;
        if (!isObject(child) && t.elem) return { ...t.elem, cost: add(t.cost, i.cost, fixed(1)) };
        return this.fromSchema(isObject(child) ? child : undefined, add(t.cost, i.cost, fixed(1)));
      }
      case 'call': {
        const [name, args] = n.args as [string, Node[]];
        return this.call(name, args);
      }
      case 'rcall': {
        const [name, target, args] = n.args as [string, Node, Node[]];
        return this.memberCall(name, target, args);
      }
      default: {
        const parts = Array.isArray(n.args) ? (n.args as unknown[]).filter((a): a is Node => isObject(a) && typeof a.op === 'string') : [];
        return { cost: add(fixed(1), ...parts.map((p) => this.walk(p).cost)) };
      }
    }
  }

  literal(v: unknown): Info {
    if (typeof v === 'string') return { cost: fixed(0), kind: 'string', size: fixed([...v].length) };
    if (v instanceof Uint8Array) return { cost: fixed(0), kind: 'bytes', size: fixed(v.length) };
    return { cost: fixed(0), kind: 'scalar', size: fixed(1) };
  }

  call(name: string, argNodes: Node[]): Info {
    if (name === 'has') {
      const sel = argNodes[0];
      const operand = sel && (sel.op === '.' || sel.op === '.?') ? this.walk((sel.args as Node[])[0]!) : { cost: fixed(0) };
      return { cost: operand.cost, kind: 'scalar' };
    }
    const args = argNodes.map((a) => this.walk(a));
    const argCost = add(...args.map((a) => a.cost));
    const first = args[0];
    if (name === 'dyn' && first) return { ...first, cost: add(fixed(1), first.cost) };
    // url() and the string/bytes conversions walk their argument; Kubernetes' estimator leaves the other
    // global parsers (ip, cidr, quantity, isIP, isCIDR, isQuantity, isURL) at the nominal cost of 1
    if (name === 'url' && first?.size) return { cost: add(argCost, byFactor(first.size, traversal)), kind: 'scalar' };
    if ((name === 'string' || name === 'bytes') && first?.size && (first.kind === 'string' || first.kind === 'bytes')) {
      const size = name === 'bytes' ? { min: first.size.min, max: first.size.max * 4 } : { min: Math.floor(first.size.min / 4), max: first.size.max };
      return { cost: add(argCost, byFactor(first.size, traversal)), kind: name, size };
    }
    return { cost: add(fixed(1), argCost), kind: name === 'string' ? 'string' : 'scalar' };
  }

  private comprehension(name: string, range: Info, argNodes: Node[]): Info {
    const varName = argNodes[0]?.op === 'id' ? (argNodes[0].args as string) : '';
    const elem = this.element(range);
    const stack = this.scopes.get(varName) ?? [];
    this.scopes.set(varName, [...stack, elem]);
    const bodies = argNodes.slice(1).map((a) => this.walk(a));
    this.scopes.set(varName, stack);
    const n = range.size ?? { min: 0, max: maxRequestSizeBytes };
    const body = add(...bodies.map((b) => b.cost));
    const perStep: Record<string, [number, number, number]> = {
      // [accumulator init, result, per-iteration overhead] of the macro's expansion
      all: [0, 1, 3],
      exists: [0, 1, 4],
      exists_one: [0, 2, 2],
      map: [10, 1, 12],
      filter: [10, 1, 13],
    };
    const [init, result, overhead] = perStep[name] ?? [0, 1, 3];
    const cost = add(range.cost, fixed(init + result), mul(n, add(body, fixed(overhead))));
    if (name === 'map') {
      const last = bodies.at(-1);
      return { cost, kind: 'list', size: n, ...(last ? { elem: last } : {}) };
    }
    if (name === 'filter') return { cost, kind: 'list', size: n, elem };
    return { cost, kind: 'scalar' };
  }

  memberCall(name: string, targetNode: Node, argNodes: Node[]): Info {
    if (targetNode.op === 'id' && ['sets', 'strings', 'format', 'optional'].includes(targetNode.args as string)) {
      const args = argNodes.map((a) => this.walk(a));
      const argCost = add(...args.map((a) => a.cost));
      if (targetNode.args === 'sets' && args.length === 2) return { cost: add(argCost, fixed(1), mul(args[0]?.size ?? fixed(1), args[1]?.size ?? fixed(1))), kind: 'scalar' };
      if (targetNode.args === 'strings' && args[0]?.size) return { cost: add(argCost, byFactor(args[0].size, traversal)), kind: 'string', size: { min: args[0].size.min + 2, max: args[0].size.max * 2 + 2 } };
      if (targetNode.args === 'optional' && args[0]) return { ...args[0], cost: add(argCost, fixed(1)) };
      return { cost: add(argCost, fixed(1)), kind: 'scalar' };
    }
    const target = this.walk(targetNode);
    if (['all', 'exists', 'exists_one', 'map', 'filter'].includes(name) && argNodes.length >= 2 && argNodes[0]?.op === 'id') return this.comprehension(name, target, argNodes);
    const args = argNodes.map((a) => this.walk(a));
    const base = add(target.cost, ...args.map((a) => a.cost));
    const tSize = target.size ?? fixed(1);
    const aSize = args[0]?.size ?? fixed(1);
    const elemSize = target.elem?.size ?? (isObject(target.schema) && isObject(target.schema.items) ? this.fromSchema(target.schema.items as Schema, fixed(0)).size : undefined) ?? fixed(1);
    const listElementCost = target.elem?.kind === 'string' || target.elem?.kind === 'bytes' || kindOf(isObject(target.schema) ? (target.schema.items as Schema | undefined) : undefined) === 'string' ? add(fixed(1), byFactor(elemSize, traversal)) : fixed(1);
    switch (name) {
      case 'contains':
        return { cost: add(base, mul(byFactor(tSize, traversal), byFactor(aSize, traversal))), kind: 'scalar' };
      case 'indexOf':
      case 'lastIndexOf':
        if (target.kind === 'list') return { cost: add(base, mul(tSize, listElementCost)), kind: 'scalar' };
        return { cost: add(base, byFactor(tSize, traversal)), kind: 'scalar' };
      case 'isSorted':
      case 'sum':
      case 'min':
      case 'max':
        return { cost: add(base, mul(tSize, listElementCost)), kind: 'scalar' };
      case 'startsWith':
      case 'endsWith':
        return { cost: add(base, byFactor(aSize, traversal)), kind: 'scalar' };
      case 'matches':
      case 'find':
      case 'findAll':
        return {
          cost: add(base, mul(byFactor(add(tSize, fixed(1)), traversal), byFactor(aSize, regexFactor))),
          kind: name === 'findAll' ? 'list' : name === 'find' ? 'string' : 'scalar',
          ...(name === 'matches' ? {} : { size: { min: 0, max: tSize.max } }),
          ...(name === 'findAll' ? { elem: { cost: fixed(0), kind: 'string' as const, size: tSize } } : {}),
        };
      case 'lowerAscii':
      case 'upperAscii':
      case 'trim':
      case 'substring':
      case 'format':
        return { cost: add(base, byFactor(tSize, traversal)), kind: 'string', size: tSize };
      case 'charAt':
        return { cost: add(base, fixed(1)), kind: 'string', size: fixed(1) };
      case 'replace': {
        const [from, to] = [args[0]?.size ?? fixed(1), args[1]?.size ?? fixed(1)];
        const [count, retained] = from.min === 0 ? [tSize.max + 1, tSize.max] : to.max <= from.min ? [0, tSize.max] : [Math.ceil(tSize.max / from.min), 0];
        return { cost: add(base, byFactor(tSize, 2 * traversal)), kind: 'string', size: { min: 0, max: count * to.max + retained } };
      }
      case 'split':
        return { cost: add(base, byFactor(tSize, 2 * traversal)), kind: 'list', size: { min: 0, max: tSize.max }, elem: { cost: fixed(0), kind: 'string', size: tSize } };
      case 'join': {
        const separators = { min: Math.max(0, tSize.min - 1), max: Math.max(0, tSize.max - 1) };
        const size = add(mul(tSize, elemSize), args[0] ? mul(aSize, separators) : fixed(0));
        return { cost: add(base, byFactor(size, traversal)), kind: 'string', size };
      }
      case 'containsIP':
      case 'containsCIDR': {
        const compare = byFactor({ min: 8, max: 32 }, traversal);
        const mask = name === 'containsCIDR' ? add(byFactor({ min: 4, max: 16 }, traversal), fixed(1)) : fixed(0);
        const parse = args[0]?.kind === 'string' ? byFactor(aSize, traversal) : fixed(0);
        return { cost: add(base, compare, mask, parse), kind: 'scalar' };
      }
      case 'orValue':
      case 'value':
        return { ...target, cost: add(base, fixed(1)) };
      default:
        return { cost: add(base, fixed(1)), kind: 'scalar' };
    }
  }
}

/** The cost range of one expression whose `self` (and `oldSelf`) has `selfSchema`, with sizes from `sizeOf`. */
export function estimateCost(ast: unknown, selfSchema: Schema, sizeOf: SizeOf = schemaSizes): Range {
  return new Coster(selfSchema, sizeOf).walk(ast as Node).cost;
}
