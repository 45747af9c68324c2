import { re2ToRegExp } from './regex-library.js';
import { parseGoDurationNanos } from '../../../apimachinery/go-duration.js';

/**
 * cel-js parse and type-check errors rendered as cel-go's compiler issues
 * (`ERROR: <input>:1:6: undefined field 'foo'` with the source line and a caret), and the CEL
 * features cel-js offers beyond what a 1.32 server enables for CRD rules, reported the same way.
 */

interface CelJsError {
  message: string;
  range?: { start: number; end: number };
}

const firstLine = (s: string): string => s.split('\n')[0] ?? s;

/** cel-go wording for a cel-js error message. */
export function celGoWording(message: string, known: Set<string>): string {
  const text = firstLine(message);
  let m = /^No such key: (.*)$/.exec(text);
  if (m) return `undefined field '${m[1]}'`;
  m = /^Unknown variable: (.*)$/.exec(text);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  m = /^found no matching overload for '(?:(.+)\.)?([A-Za-z_][A-Za-z0-9_]*)\((.*)\)'$/.exec(text);
  if (m) {
    const [, receiver, fn = '', args = ''] = m;
    if (!known.has(fn)) return `undeclared reference to '${fn}' (in container '')`;
    return `found no matching overload for '${fn}' applied to '${receiver ? `${receiver}.` : ''}(${args})'`;
  }
  m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(text);
  if (m) return `found no matching overload for '_${m[2]}_' applied to '(${m[1]}, ${m[3]})'`;
  m = /^List elements must have the same type, expected type '(.*)' but found '(.*)'$/.exec(text);
  if (m) return `expected type '${m[1]}' but found '${m[2]}'`;
  return text;
}

/** `ERROR: <input>:line:col: message` followed by the source line and a caret, as cel-go prints issues. */
export function issueText(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const col = offset - lineStart;
  const sourceLine = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${message}\n | ${sourceLine}\n | ${'.'.repeat(col)}^`;
}

/** Where a binary operator stands in the expression starting at `from` (cel-go reports operators there). */
function operatorOffset(source: string, from: number, op: string): number {
  let depth = 0;
  for (let i = from; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '"' || c === "'") {
      const close = source.indexOf(c, i + 1);
      if (close < 0) break;
      i = close;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && i > from && source.startsWith(op, i)) return i;
  }
  return from;
}

/** The cel-go style text of a cel-js ParseError / TypeError. */
export function compileIssue(source: string, err: CelJsError, parse: boolean, known: Set<string>): string {
  let offset = err.range?.start ?? 0;
  if (parse && /(^|[^\w\])\s])\s*\[\s*\?|\{\s*\?|,\s*\?/.test(source)) {
    return issueText(
      source,
      offset,
      'optional entries in list and map literals ([?x], {?k: v}) are valid CEL with optional types, but the kubeforge local cluster cannot evaluate them (its CEL engine, @marcbachmann/cel-js, does not parse them); use has() or .orValue() instead',
    );
  }
  if (firstLine(err.message) === 'has() invalid argument') {
    return issueText(
      source,
      offset,
      'has() of a field of an indexed value (has(a[0].b)) is valid CEL, but the kubeforge local cluster cannot evaluate it (its CEL engine only tests fields reached by field selections); test the element in all()/exists(), or use a[0].?b.hasValue()',
    );
  }
  const message = parse ? `Syntax error: ${firstLine(err.message)}` : celGoWording(err.message, known);
  // cel-go places a select at its '.', a call at its '('
  if (message.startsWith('undefined field') && source[offset - 1] === '.') offset -= 1;
  const operator = /^found no matching overload for '_(\S+)_'/.exec(message);
  if (operator) offset = operatorOffset(source, offset, operator[1] as string);
  const call = /^(?:undeclared reference to|found no matching overload for) '([A-Za-z_][A-Za-z0-9_]*)'/.exec(message);
  if (call && source.slice(offset).includes(`${call[1]}(`)) offset += source.slice(offset).indexOf(`${call[1]}(`) + (call[1] as string).length;
  return issueText(source, offset, message);
}

interface AstNode {
  op: string;
  args: unknown;
  start?: number;
  pos?: number;
}

/** cel-js functions that a 1.32 server does not declare for CRD rules (cel-go's bindings and encoders are not enabled). */
const notDeclared = new Map<string, string>([
  ['cel.bind', 'cel'],
  ['json', 'json'],
  ['hex', 'hex'],
  ['base64', 'base64'],
  ['at', 'at'],
]);

/** Issues for calls that cel-js accepts but a 1.32 CRD environment does not declare. */
export function undeclaredCalls(source: string, ast: unknown): string[] {
  const issues: string[] = [];
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (n === null || typeof n !== 'object') return;
    const node = n as AstNode;
    if (typeof node.op !== 'string') return;
    if (node.op === 'rcall' && Array.isArray(node.args)) {
      const [name, target] = node.args as [string, AstNode];
      const qualified = target?.op === 'id' && target.args === 'cel' ? `cel.${name}` : name;
      const ref = notDeclared.get(qualified);
      if (ref && (qualified.startsWith('cel.') || target?.op !== 'id' || !['sets', 'strings', 'format', 'optional'].includes(String(target.args)))) {
        const at = node.start ?? node.pos ?? 0;
        const open = qualified.startsWith('cel.') ? at : source.indexOf(`${name}(`, at) + name.length;
        issues.push(issueText(source, open, `undeclared reference to '${ref}' (in container '')`));
      }
    }
    visit(node.args);
  };
  visit(ast);
  return issues;
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** cel-go's literal validators (enabled since 1.29): constant regexes, durations and timestamps must parse. */
export function invalidLiterals(source: string, ast: unknown): string[] {
  const issues: string[] = [];
  const literal = (n: unknown): AstNode | undefined => {
    const node = n as AstNode | undefined;
    return node && node.op === 'value' && typeof node.args === 'string' ? node : undefined;
  };
  const report = (node: AstNode, fn: string): void => {
    issues.push(issueText(source, node.start ?? node.pos ?? 0, `invalid ${fn} argument`));
  };
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (n === null || typeof n !== 'object') return;
    const node = n as AstNode;
    if (typeof node.op !== 'string') return;
    if (node.op === 'rcall' && Array.isArray(node.args) && node.args[0] === 'matches') {
      const pattern = literal((node.args[2] as unknown[])?.[0]);
      if (pattern) {
        try {
          re2ToRegExp(pattern.args as string);
          try {
            // cel-js runs matches() on a plain JavaScript RegExp (RE2 inline flags such as (?i) fail there)
            new RegExp(pattern.args as string);
          } catch {
            issues.push(
              issueText(
                source,
                pattern.start ?? pattern.pos ?? 0,
                'this RE2 pattern is valid on a real API server, but the kubeforge local cluster cannot evaluate it with matches() (its CEL engine uses JavaScript regular expressions); use find() != "" or drop the inline flag',
              ),
            );
          }
        } catch {
          report(pattern, 'matches');
        }
      }
    }
    if (node.op === 'call' && Array.isArray(node.args) && (node.args[0] === 'duration' || node.args[0] === 'timestamp')) {
      const arg = literal((node.args[1] as unknown[])?.[0]);
      const text = arg?.args as string;
      if (arg && (node.args[0] === 'duration' ? !isGoDuration(text) : !rfc3339.test(text) || Number.isNaN(Date.parse(text)))) report(arg, node.args[0] as string);
    }
    visit(node.args);
  };
  visit(ast);
  return issues;
}

/** What cel-go's duration() takes: Go's time.ParseDuration text. */
function isGoDuration(text: string): boolean {
  try {
    parseGoDurationNanos(text);
    return true;
  } catch {
    return false;
  }
}
