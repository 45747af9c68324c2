/**
 * The syntax errors of go-yaml v2 (gopkg.in/yaml.v2 2.4, the parser behind Furiko's sigs.k8s.io/yaml), with
 * go-yaml's exact text: `yaml: line N: <problem>`. go-yaml is a port of libyaml, whose error and its line
 * follow from the scanner's token queue (simple keys, indentation, flow levels) and the parser's states;
 * no npm YAML library reports those (the `yaml` package has its own messages and positions), so this module
 * re-implements libyaml's scanner (go-yaml-scanner.ts) and parser (here) rules in their shape.
 * `parseGoYaml(text)` gives go-yaml's message for the first error `yaml.Unmarshal` would report while
 * parsing, or the first document's node tree (scalar values as libyaml folds them, tags, aliases), which
 * go-yaml-decode.ts decodes. The message's line is go-yaml's: the 0-based line of the problem mark (plus one
 * for scanner errors), else that of the context mark, else none.
 */

import { GoYamlError, Scanner, ZERO_MARK, type Mark, type Token } from './go-yaml-scanner.js';

type ParserState =
  | 'STREAM-START'
  | 'IMPLICIT-DOCUMENT-START'
  | 'DOCUMENT-START'
  | 'DOCUMENT-CONTENT'
  | 'DOCUMENT-END'
  | 'BLOCK-NODE'
  | 'BLOCK-NODE-OR-INDENTLESS-SEQUENCE'
  | 'FLOW-NODE'
  | 'BLOCK-SEQUENCE-FIRST-ENTRY'
  | 'BLOCK-SEQUENCE-ENTRY'
  | 'INDENTLESS-SEQUENCE-ENTRY'
  | 'BLOCK-MAPPING-FIRST-KEY'
  | 'BLOCK-MAPPING-KEY'
  | 'BLOCK-MAPPING-VALUE'
  | 'FLOW-SEQUENCE-FIRST-ENTRY'
  | 'FLOW-SEQUENCE-ENTRY'
  | 'FLOW-SEQUENCE-ENTRY-MAPPING-KEY'
  | 'FLOW-SEQUENCE-ENTRY-MAPPING-VALUE'
  | 'FLOW-SEQUENCE-ENTRY-MAPPING-END'
  | 'FLOW-MAPPING-FIRST-KEY'
  | 'FLOW-MAPPING-KEY'
  | 'FLOW-MAPPING-VALUE'
  | 'FLOW-MAPPING-EMPTY-VALUE'
  | 'END';

type EventType = 'STREAM-START' | 'STREAM-END' | 'DOCUMENT-START' | 'DOCUMENT-END' | 'ALIAS' | 'SCALAR' | 'SEQUENCE-START' | 'SEQUENCE-END' | 'MAPPING-START' | 'MAPPING-END';

interface ParseEvent {
  type: EventType;
  anchor?: string;
  /** The node's tag, resolved through the %TAG directives (`tag:yaml.org,2002:int`, `!foo`); '' when none. */
  tag?: string;
  /** A scalar's value. */
  value?: string;
  /** A scalar whose type is to be resolved from its plain text (libyaml's plain_implicit). */
  implicit?: boolean;
}

/** The empty scalar libyaml's parser makes for a missing node (process_empty_scalar). */
const emptyScalar = (): ParseEvent => ({ type: 'SCALAR', tag: '', value: '', implicit: true });

/** libyaml's parser (parserc.go): the event state machine over the scanner's tokens, with its errors. */
class Parser {
  private state: ParserState = 'STREAM-START';
  private readonly states: ParserState[] = [];
  private readonly marks: Mark[] = [];
  private tagPrefixes = new Map<string, string>();

  constructor(private readonly scanner: Scanner) {}

  private error(problem: string, problemMark: Mark, context?: string, contextMark?: Mark): never {
    void context;
    throw new GoYamlError('parser', problem, problemMark, contextMark ?? ZERO_MARK);
  }

  private popState(): void {
    this.state = this.states.pop()!;
  }

  next(): ParseEvent {
    switch (this.state) {
      case 'STREAM-START': {
        const token = this.scanner.peek();
        if (token.type !== 'STREAM-START') this.error('did not find expected <stream-start>', token.start);
        this.state = 'IMPLICIT-DOCUMENT-START';
        this.scanner.skipToken();
        return { type: 'STREAM-START' };
      }
      case 'IMPLICIT-DOCUMENT-START':
        return this.documentStart(true);
      case 'DOCUMENT-START':
        return this.documentStart(false);
      case 'DOCUMENT-CONTENT': {
        const token = this.scanner.peek();
        if (['VERSION-DIRECTIVE', 'TAG-DIRECTIVE', 'DOCUMENT-START', 'DOCUMENT-END', 'STREAM-END'].includes(token.type)) {
          this.popState();
          return emptyScalar();
        }
        return this.node(true, false);
      }
      case 'DOCUMENT-END': {
        const token = this.scanner.peek();
        if (token.type === 'DOCUMENT-END') this.scanner.skipToken();
        this.tagPrefixes = new Map();
        this.state = 'DOCUMENT-START';
        return { type: 'DOCUMENT-END' };
      }
      case 'BLOCK-NODE':
        return this.node(true, false);
      case 'BLOCK-NODE-OR-INDENTLESS-SEQUENCE':
        return this.node(true, true);
      case 'FLOW-NODE':
        return this.node(false, false);
      case 'BLOCK-SEQUENCE-FIRST-ENTRY':
        return this.blockSequenceEntry(true);
      case 'BLOCK-SEQUENCE-ENTRY':
        return this.blockSequenceEntry(false);
      case 'INDENTLESS-SEQUENCE-ENTRY':
        return this.indentlessSequenceEntry();
      case 'BLOCK-MAPPING-FIRST-KEY':
        return this.blockMappingKey(true);
      case 'BLOCK-MAPPING-KEY':
        return this.blockMappingKey(false);
      case 'BLOCK-MAPPING-VALUE':
        return this.blockMappingValue();
      case 'FLOW-SEQUENCE-FIRST-ENTRY':
        return this.flowSequenceEntry(true);
      case 'FLOW-SEQUENCE-ENTRY':
        return this.flowSequenceEntry(false);
      case 'FLOW-SEQUENCE-ENTRY-MAPPING-KEY':
        return this.flowSequenceEntryMappingKey();
      case 'FLOW-SEQUENCE-ENTRY-MAPPING-VALUE':
        return this.flowSequenceEntryMappingValue();
      case 'FLOW-SEQUENCE-ENTRY-MAPPING-END':
        this.scanner.peek();
        this.state = 'FLOW-SEQUENCE-ENTRY';
        return { type: 'MAPPING-END' };
      case 'FLOW-MAPPING-FIRST-KEY':
        return this.flowMappingKey(true);
      case 'FLOW-MAPPING-KEY':
        return this.flowMappingKey(false);
      case 'FLOW-MAPPING-VALUE':
        return this.flowMappingValue(false);
      case 'FLOW-MAPPING-EMPTY-VALUE':
        return this.flowMappingValue(true);
      case 'END':
        return { type: 'STREAM-END' };
    }
  }

  private documentStart(implicit: boolean): ParseEvent {
    let token = this.scanner.peek();
    if (!implicit) {
      while (token.type === 'DOCUMENT-END') {
        this.scanner.skipToken();
        token = this.scanner.peek();
      }
    }
    if (implicit && !['VERSION-DIRECTIVE', 'TAG-DIRECTIVE', 'DOCUMENT-START', 'STREAM-END'].includes(token.type)) {
      this.processDirectives();
      this.states.push('DOCUMENT-END');
      this.state = 'BLOCK-NODE';
      return { type: 'DOCUMENT-START' };
    }
    if (token.type !== 'STREAM-END') {
      this.processDirectives();
      token = this.scanner.peek();
      if (token.type !== 'DOCUMENT-START') this.error('did not find expected <document start>', token.start);
      this.states.push('DOCUMENT-END');
      this.state = 'DOCUMENT-CONTENT';
      this.scanner.skipToken();
      return { type: 'DOCUMENT-START' };
    }
    this.state = 'END';
    this.scanner.skipToken();
    return { type: 'STREAM-END' };
  }

  private processDirectives(): void {
    let versionSeen = false;
    let token = this.scanner.peek();
    while (token.type === 'VERSION-DIRECTIVE' || token.type === 'TAG-DIRECTIVE') {
      if (token.type === 'VERSION-DIRECTIVE') {
        if (versionSeen) this.error('found duplicate %YAML directive', token.start);
        if (token.major !== 1 || token.minor !== 1) this.error('found incompatible YAML document', token.start);
        versionSeen = true;
      } else {
        if (this.tagPrefixes.has(token.value!)) this.error('found duplicate %TAG directive', token.start);
        this.tagPrefixes.set(token.value!, token.suffix!);
      }
      this.scanner.skipToken();
      token = this.scanner.peek();
    }
    if (!this.tagPrefixes.has('!')) this.tagPrefixes.set('!', '!');
    if (!this.tagPrefixes.has('!!')) this.tagPrefixes.set('!!', 'tag:yaml.org,2002:');
  }

  private node(block: boolean, indentlessSequence: boolean): ParseEvent {
    let token = this.scanner.peek();
    if (token.type === 'ALIAS') {
      this.popState();
      this.scanner.skipToken();
      return { type: 'ALIAS', anchor: token.value };
    }
    const startMark = token.start;
    let anchor: string | undefined;
    let tag: Token | undefined;
    for (;;) {
      const property = this.scanner.peek();
      if (property.type === 'ANCHOR' && anchor === undefined) anchor = property.value;
      else if (property.type === 'TAG' && !tag) tag = property;
      else break;
      this.scanner.skipToken();
    }
    token = this.scanner.peek();
    let tagName = '';
    if (tag) {
      const prefix = tag.value === '' ? '' : this.tagPrefixes.get(tag.value!);
      if (prefix === undefined) this.error('found undefined tag handle', tag.start, 'while parsing a node', startMark);
      tagName = prefix + tag.suffix!;
    }
    if (indentlessSequence && token.type === 'BLOCK-ENTRY') {
      this.state = 'INDENTLESS-SEQUENCE-ENTRY';
      return { type: 'SEQUENCE-START', anchor, tag: tagName };
    }
    if (token.type === 'SCALAR') {
      this.popState();
      this.scanner.skipToken();
      const implicit = (tagName === '' && token.style === 'plain') || tagName === '!';
      return { type: 'SCALAR', anchor, tag: tagName, value: token.value, implicit };
    }
    if (token.type === 'FLOW-SEQUENCE-START') {
      this.state = 'FLOW-SEQUENCE-FIRST-ENTRY';
      return { type: 'SEQUENCE-START', anchor, tag: tagName };
    }
    if (token.type === 'FLOW-MAPPING-START') {
      this.state = 'FLOW-MAPPING-FIRST-KEY';
      return { type: 'MAPPING-START', anchor, tag: tagName };
    }
    if (block && token.type === 'BLOCK-SEQUENCE-START') {
      this.state = 'BLOCK-SEQUENCE-FIRST-ENTRY';
      return { type: 'SEQUENCE-START', anchor, tag: tagName };
    }
    if (block && token.type === 'BLOCK-MAPPING-START') {
      this.state = 'BLOCK-MAPPING-FIRST-KEY';
      return { type: 'MAPPING-START', anchor, tag: tagName };
    }
    if (anchor !== undefined || tag) {
      this.popState();
      return { type: 'SCALAR', anchor, tag: tagName, value: '', implicit: tagName === '' };
    }
    this.error('did not find expected node content', token.start, block ? 'while parsing a block node' : 'while parsing a flow node', startMark);
  }

  /** Pushes the collection's start mark and consumes its start token (the `first` call of each state). */
  private enterCollection(): void {
    this.marks.push(this.scanner.peek().start);
    this.scanner.skipToken();
  }

  private blockSequenceEntry(first: boolean): ParseEvent {
    if (first) this.enterCollection();
    let token = this.scanner.peek();
    if (token.type === 'BLOCK-ENTRY') {
      this.scanner.skipToken();
      token = this.scanner.peek();
      if (token.type !== 'BLOCK-ENTRY' && token.type !== 'BLOCK-END') {
        this.states.push('BLOCK-SEQUENCE-ENTRY');
        return this.node(true, false);
      }
      this.state = 'BLOCK-SEQUENCE-ENTRY';
      return emptyScalar();
    }
    if (token.type === 'BLOCK-END') {
      this.popState();
      this.marks.pop();
      this.scanner.skipToken();
      return { type: 'SEQUENCE-END' };
    }
    this.error("did not find expected '-' indicator", token.start, 'while parsing a block collection', this.marks.pop());
  }

  private indentlessSequenceEntry(): ParseEvent {
    let token = this.scanner.peek();
    if (token.type === 'BLOCK-ENTRY') {
      this.scanner.skipToken();
      token = this.scanner.peek();
      if (!['BLOCK-ENTRY', 'KEY', 'VALUE', 'BLOCK-END'].includes(token.type)) {
        this.states.push('INDENTLESS-SEQUENCE-ENTRY');
        return this.node(true, false);
      }
      this.state = 'INDENTLESS-SEQUENCE-ENTRY';
      return emptyScalar();
    }
    this.popState();
    return { type: 'SEQUENCE-END' };
  }

  private blockMappingKey(first: boolean): ParseEvent {
    if (first) this.enterCollection();
    let token = this.scanner.peek();
    if (token.type === 'KEY') {
      this.scanner.skipToken();
      token = this.scanner.peek();
      if (!['KEY', 'VALUE', 'BLOCK-END'].includes(token.type)) {
        this.states.push('BLOCK-MAPPING-VALUE');
        return this.node(true, true);
      }
      this.state = 'BLOCK-MAPPING-VALUE';
      return emptyScalar();
    }
    if (token.type === 'BLOCK-END') {
      this.popState();
      this.marks.pop();
      this.scanner.skipToken();
      return { type: 'MAPPING-END' };
    }
    this.error('did not find expected key', token.start, 'while parsing a block mapping', this.marks.pop());
  }

  private blockMappingValue(): ParseEvent {
    let token = this.scanner.peek();
    if (token.type === 'VALUE') {
      this.scanner.skipToken();
      token = this.scanner.peek();
      if (!['KEY', 'VALUE', 'BLOCK-END'].includes(token.type)) {
        this.states.push('BLOCK-MAPPING-KEY');
        return this.node(true, true);
      }
    }
    this.state = 'BLOCK-MAPPING-KEY';
    return emptyScalar();
  }

  private flowSequenceEntry(first: boolean): ParseEvent {
    if (first) this.enterCollection();
    let token = this.scanner.peek();
    if (token.type !== 'FLOW-SEQUENCE-END') {
      if (!first) {
        if (token.type !== 'FLOW-ENTRY') this.error("did not find expected ',' or ']'", token.start, 'while parsing a flow sequence', this.marks.pop());
        this.scanner.skipToken();
        token = this.scanner.peek();
      }
      if (token.type === 'KEY') {
        this.state = 'FLOW-SEQUENCE-ENTRY-MAPPING-KEY';
        this.scanner.skipToken();
        return { type: 'MAPPING-START' };
      }
      if (token.type !== 'FLOW-SEQUENCE-END') {
        this.states.push('FLOW-SEQUENCE-ENTRY');
        return this.node(false, false);
      }
    }
    this.popState();
    this.marks.pop();
    this.scanner.skipToken();
    return { type: 'SEQUENCE-END' };
  }

  private flowSequenceEntryMappingKey(): ParseEvent {
    const token = this.scanner.peek();
    if (!['VALUE', 'FLOW-ENTRY', 'FLOW-SEQUENCE-END'].includes(token.type)) {
      this.states.push('FLOW-SEQUENCE-ENTRY-MAPPING-VALUE');
      return this.node(false, false);
    }
    this.scanner.skipToken();
    this.state = 'FLOW-SEQUENCE-ENTRY-MAPPING-VALUE';
    return emptyScalar();
  }

  private flowSequenceEntryMappingValue(): ParseEvent {
    const token = this.scanner.peek();
    if (token.type === 'VALUE') {
      this.scanner.skipToken();
      const next = this.scanner.peek();
      if (next.type !== 'FLOW-ENTRY' && next.type !== 'FLOW-SEQUENCE-END') {
        this.states.push('FLOW-SEQUENCE-ENTRY-MAPPING-END');
        return this.node(false, false);
      }
    }
    this.state = 'FLOW-SEQUENCE-ENTRY-MAPPING-END';
    return emptyScalar();
  }

  private flowMappingKey(first: boolean): ParseEvent {
    if (first) this.enterCollection();
    let token = this.scanner.peek();
    if (token.type !== 'FLOW-MAPPING-END') {
      if (!first) {
        if (token.type !== 'FLOW-ENTRY') this.error("did not find expected ',' or '}'", token.start, 'while parsing a flow mapping', this.marks.pop());
        this.scanner.skipToken();
        token = this.scanner.peek();
      }
      if (token.type === 'KEY') {
        this.scanner.skipToken();
        token = this.scanner.peek();
        if (!['VALUE', 'FLOW-ENTRY', 'FLOW-MAPPING-END'].includes(token.type)) {
          this.states.push('FLOW-MAPPING-VALUE');
          return this.node(false, false);
        }
        this.state = 'FLOW-MAPPING-VALUE';
        return emptyScalar();
      }
      if (token.type !== 'FLOW-MAPPING-END') {
        this.states.push('FLOW-MAPPING-EMPTY-VALUE');
        return this.node(false, false);
      }
    }
    this.popState();
    this.marks.pop();
    this.scanner.skipToken();
    return { type: 'MAPPING-END' };
  }

  private flowMappingValue(empty: boolean): ParseEvent {
    const token = this.scanner.peek();
    if (!empty && token.type === 'VALUE') {
      this.scanner.skipToken();
      const next = this.scanner.peek();
      if (next.type !== 'FLOW-ENTRY' && next.type !== 'FLOW-MAPPING-END') {
        this.states.push('FLOW-MAPPING-KEY');
        return this.node(false, false);
      }
    }
    this.state = 'FLOW-MAPPING-KEY';
    return emptyScalar();
  }
}

/** A node of go-yaml v2's document tree (its parser.go `node`), aliases bound to their anchored node. */
export type GoYamlNode =
  | { kind: 'scalar'; tag: string; value: string; implicit: boolean }
  | { kind: 'mapping'; tag: string; children: GoYamlNode[] }
  | { kind: 'sequence'; tag: string; children: GoYamlNode[] }
  | { kind: 'alias'; name: string; target: GoYamlNode };

/** What go-yaml v2's `yaml.Unmarshal` makes of a text's first document. */
export interface GoYamlParse {
  /** go-yaml's message (`yaml: line 2: did not find expected key`) when the document does not parse. */
  error?: string;
  /** The document's root node; null for a stream with no document. */
  root?: GoYamlNode | null;
}

/**
 * Parses the first document of `text` into go-yaml v2's node tree, as `yaml.Unmarshal` does before decoding:
 * syntax errors, and aliases to an anchor not (yet) defined (`yaml: unknown anchor 'b' referenced`).
 */
export function parseGoYaml(text: string): GoYamlParse {
  const source = text.length === 0 ? '\n' : text;
  const parser = new Parser(new Scanner(source));
  const anchors = new Map<string, GoYamlNode>();
  let lookahead: ParseEvent | undefined;
  const peek = () => (lookahead ??= parser.next());
  const consume = () => {
    const event = peek();
    lookahead = undefined;
    return event;
  };
  const node = (): GoYamlNode => {
    const event = consume();
    if (event.type === 'ALIAS') {
      const target = anchors.get(event.anchor!);
      if (!target) throw new GoYamlError('decoder', `unknown anchor '${event.anchor}' referenced`);
      return { kind: 'alias', name: event.anchor!, target };
    }
    if (event.type === 'SCALAR') {
      const scalar: GoYamlNode = { kind: 'scalar', tag: event.tag ?? '', value: event.value ?? '', implicit: event.implicit ?? false };
      if (event.anchor !== undefined) anchors.set(event.anchor, scalar);
      return scalar;
    }
    const children: GoYamlNode[] = [];
    const collection: GoYamlNode = event.type === 'MAPPING-START' ? { kind: 'mapping', tag: event.tag ?? '', children } : { kind: 'sequence', tag: event.tag ?? '', children };
    if (event.anchor !== undefined) anchors.set(event.anchor, collection);
    const end = event.type === 'MAPPING-START' ? 'MAPPING-END' : 'SEQUENCE-END';
    while (peek().type !== end) children.push(node());
    consume();
    return collection;
  };
  try {
    consume(); // STREAM-START
    if (consume().type === 'STREAM-END') return { root: null };
    const root = node();
    consume(); // DOCUMENT-END
    return { root };
  } catch (err) {
    if (err instanceof GoYamlError) return { error: err.message };
    throw err;
  }
}

/** go-yaml v2's parse error for `text` (see parseGoYaml), or undefined when its first document parses. */
export function goYamlSyntaxError(text: string): string | undefined {
  return parseGoYaml(text).error;
}
