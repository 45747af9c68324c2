import { toYaml } from './emit.js';
import { compareKeys } from './key-order.js';

describe('toYaml', () => {
  describe('collections', () => {
    it('writes nested mappings with 2-space indent and unindented sequences under keys', () => {
      expect(toYaml({ metadata: { name: 'x' }, rules: [{ apiGroups: ['batch'], verbs: ['get'] }] })).toBe(
        'metadata:\n  name: x\nrules:\n- apiGroups:\n  - batch\n  verbs:\n  - get\n',
      );
    });
    it('writes empty maps and lists in flow form', () => {
      expect(toYaml({ status: {}, items: [], nested: [{}, []] })).toBe('items: []\nnested:\n- {}\n- []\nstatus: {}\n');
    });
    it('writes sequences of sequences on the dash line', () => {
      expect(toYaml({ a: [['p', 'q'], ['r']] })).toBe('a:\n- - p\n  - q\n- - r\n');
    });
    it('writes top-level scalars and lists', () => {
      expect(toYaml('x')).toBe('x\n');
      expect(toYaml(['a', { b: 1 }])).toBe('- a\n- b: 1\n');
      expect(toYaml({})).toBe('{}\n');
    });
    it('writes keys over 128 bytes or with line breaks in explicit ? form', () => {
      const long = 'k'.repeat(129);
      expect(toYaml({ [long]: 1, a: 2 })).toBe(`a: 2\n? ${long}\n: 1\n`);
      expect(toYaml({ 'x\ny': { b: 1 } })).toBe('? |-\n  x\n  y\n:\n  b: 1\n');
    });
    it('omits undefined members', () => {
      expect(toYaml({ a: undefined, b: 1 })).toBe('b: 1\n');
    });
  });

  describe('key order (yaml.v2 natural sort)', () => {
    const sorted = (keys: string[]) => [...keys].sort(compareKeys);
    it('compares digit runs by value', () => {
      expect(sorted(['a10', 'a2', 'a1'])).toEqual(['a1', 'a2', 'a10']);
      expect(sorted(['item10', 'item9'])).toEqual(['item9', 'item10']);
    });
    it('puts upper case before lower case and non-letters before letters', () => {
      expect(sorted(['nestedassociativeList', 'nestedStructWithSeveralFieldsDoubleMarked'])).toEqual(['nestedStructWithSeveralFieldsDoubleMarked', 'nestedassociativeList']);
      expect(sorted(['floatWithValidations', 'float64WithValidations'])).toEqual(['float64WithValidations', 'floatWithValidations']);
      expect(sorted(['xa', 'x-kubernetes-validations'])).toEqual(['x-kubernetes-validations', 'xa']);
    });
    it('puts a prefix first', () => {
      expect(sorted(['status', 'stat'])).toEqual(['stat', 'status']);
    });
    it('orders the keys of every mapping it writes', () => {
      expect(toYaml({ b: 1, a10: 2, a2: 3 })).toBe('a2: 3\na10: 2\nb: 1\n');
    });
  });

  describe('scalars', () => {
    it('double-quotes strings that would read back as other types', () => {
      for (const s of ['true', 'False', 'yes', 'n', 'ON', 'null', '~', '', '124', '-1', '0x1F', '017', '1e3', '.5', '1.5', '2001-12-14', '2001-12-14T21:59:43Z', '1:20', '.inf']) {
        expect(toYaml({ v: s })).toBe(`v: ${JSON.stringify(s)}\n`);
      }
    });
    it('leaves strings plain when they read back as strings', () => {
      for (const s of ['Unknown', 'forty-two', '100Mi', 'v1', 'a:b', 'x#y', '/usr/bin', '2024-13-45', '1.2.3', 'Yess', '-foo', '?foo', '<<']) {
        expect(toYaml({ v: s })).toBe(`v: ${s}\n`);
      }
    });
    it('single-quotes strings plain YAML cannot carry', () => {
      expect(toYaml({ v: '*' })).toBe("v: '*'\n");
      expect(toYaml({ v: '{}' })).toBe("v: '{}'\n");
      expect(toYaml({ v: '!has(oldSelf.x) || has(self.x)' })).toBe("v: '!has(oldSelf.x) || has(self.x)'\n");
      expect(toYaml({ v: 'Optional: Host name' })).toBe("v: 'Optional: Host name'\n");
      expect(toYaml({ v: 'a #comment' })).toBe("v: 'a #comment'\n");
      expect(toYaml({ v: ' lead' })).toBe("v: ' lead'\n");
      expect(toYaml({ v: "- it's" })).toBe("v: '- it''s'\n");
      expect(toYaml({ v: '---x' })).toBe("v: '---x'\n");
    });
    it('double-quotes strings with tabs or other non-printable characters', () => {
      expect(toYaml({ v: 'a\tb' })).toBe('v: "a\\tb"\n');
      expect(toYaml({ v: 'bell\x07' })).toBe('v: "bell\\a"\n');
    });
    it('writes multi-line strings as literal blocks with the right chomping', () => {
      expect(toYaml({ d: 'line one\nline two' })).toBe('d: |-\n  line one\n  line two\n');
      expect(toYaml({ d: 'one\n\nthree\n' })).toBe('d: |\n  one\n\n  three\n');
      expect(toYaml({ d: 'x\n\n' })).toBe('d: |+\n  x\n\n');
      expect(toYaml({ d: ' indented\nnext', e: 1 })).toBe('d: |2-\n   indented\n  next\ne: 1\n');
      expect(toYaml({ a: [{ d: 'p\nq' }] })).toBe('a:\n- d: |-\n    p\n    q\n');
    });
    it('falls back to double quotes when a literal block cannot hold the text', () => {
      expect(toYaml({ d: 'trailing \nspace' })).toBe('d: "trailing \\nspace"\n');
      expect(toYaml({ d: 'tab\there\nx' })).toBe('d: "tab\\there\\nx"\n');
    });
    it('writes non-ASCII text as is', () => {
      expect(toYaml({ v: 'héllo → ✓' })).toBe('v: héllo → ✓\n');
    });
    it('writes numbers as Go does', () => {
      expect(toYaml({ a: 2, b: -2, c: 0.5, d: -0.5, e: 1e-7, f: 1e21, g: 1234567.5, h: 123456.5, i: true, j: null })).toBe(
        'a: 2\nb: -2\nc: 0.5\nd: -0.5\ne: 1e-07\nf: 1e+21\ng: 1.2345675e+06\nh: 123456.5\ni: true\nj: null\n',
      );
    });
  });

  describe('line folding', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    it('breaks at the first space after column 80, continuing 2 deeper than the key', () => {
      const out = toYaml({ description: words(20) });
      const lines = out.split('\n');
      expect(lines[0].length).toBeGreaterThan(80);
      expect(lines[0].endsWith(' ')).toBe(false);
      expect(lines[1].startsWith('  word')).toBe(true);
      expect(out.replace(/\n {2}/g, ' ')).toBe(`description: ${words(20)}\n`);
    });
    it('never breaks keys or literal blocks', () => {
      const longKey = words(14); // 87 characters: past column 80, still a simple key
      expect(toYaml({ [longKey]: 1 })).toBe(`${longKey}: 1\n`);
      const literal = `${words(30)}\nnext`;
      expect(toYaml({ d: literal })).toBe(`d: |-\n  ${words(30)}\n  next\n`);
    });
    it('folds quoted strings, continuing 2 deeper than a sequence dash', () => {
      const out = toYaml({ list: [`${words(20)}: x`] });
      expect(out.startsWith("list:\n- '")).toBe(true);
      expect(out.split('\n')[2].startsWith('  word')).toBe(true);
    });
  });
});
