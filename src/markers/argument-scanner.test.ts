import { ArgumentScanner, unquoteGoString } from './argument-scanner.js';

function tokens(text: string, rawStrings = true): string[] {
  const scanner = new ArgumentScanner(text, rawStrings);
  const out: string[] = [];
  for (let t = scanner.scan(); t.kind !== 'eof'; t = scanner.scan()) out.push(`${t.kind}:${t.text}`);
  return out;
}

describe('marker argument scanner', () => {
  it('splits identifiers, Go numbers, strings and single characters, skipping whitespace', () => {
    expect(tokens('name="Age", priority=10')).toEqual(['ident:name', 'char:=', 'string:"Age"', 'char:,', 'ident:priority', 'char:=', 'int:10']);
    expect(tokens('0x1F 0o17 0b101 1_000 1.5 .5 1e-3')).toEqual(['int:0x1F', 'int:0o17', 'int:0b101', 'int:1_000', 'float:1.5', 'float:.5', 'float:1e-3']);
    expect(tokens('deduplicate-groups1')).toEqual(['ident:deduplicate', 'char:-', 'ident:groups1']);
  });

  it('reads `raw` strings only when enabled', () => {
    expect(tokens('`a,b`')).toEqual(['rawString:`a,b`']);
    expect(tokens('`a', false)).toEqual(['char:`', 'ident:a']);
  });

  it('reports unterminated strings and bad octal digits at the token', () => {
    const unterminated = new ArgumentScanner('x="abc', true);
    while (unterminated.scan().kind !== 'eof');
    expect(unterminated.errors).toEqual([{ message: 'literal not terminated', column: 3 }]);
    const octal = new ArgumentScanner('087bdd', true);
    octal.scan();
    expect(octal.errors).toEqual([{ message: "invalid digit '8' in octal literal", column: 1 }]);
  });

  it('decodes Go string escapes', () => {
    expect(unquoteGoString('"a\\tb\\\\c\\"d\\u00e9\\x41\\101"')).toBe('a\tb\\c"déAA');
    expect(unquoteGoString('`raw\\n`')).toBe('raw\\n');
    expect(unquoteGoString('"bad\\q"')).toBeUndefined();
  });
});
