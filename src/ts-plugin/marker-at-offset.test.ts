import { fileCommentRanges } from '../reader/file-markers.js';
import { markerAtOffset, type CommentSpan } from './marker-at-offset.js';

function comments(text: string): CommentSpan[] {
  return fileCommentRanges('x.ts', text).map((c) => ({ pos: c.pos, end: c.end, singleLine: c.kind === 2 /* SingleLineCommentTrivia */ }));
}

describe('markerAtOffset', () => {
  const text = [
    'export interface S {',
    '  // +kubebuilder:validation:Minimum=0',
    '  a?: number;',
    '  /**',
    '   * Text.',
    '   * +optional',
    '   */',
    '  b?: string;',
    '  /** +nullable */',
    '  c?: string;',
    "  d: '// +notAComment';",
    '  // text, then +notAMarker',
    '}',
  ].join('\n');
  const found = comments(text);

  it('finds a `//` marker from its `+` to the end of the line', () => {
    const plus = text.indexOf('+kubebuilder');
    expect(markerAtOffset(text, found, plus + 5)).toEqual({ start: plus, text: '+kubebuilder:validation:Minimum=0' });
    expect(markerAtOffset(text, found, plus)).toEqual({ start: plus, text: '+kubebuilder:validation:Minimum=0' });
    expect(markerAtOffset(text, found, plus + '+kubebuilder:validation:Minimum=0'.length)?.start).toBe(plus);
    expect(markerAtOffset(text, found, plus - 1)).toBeUndefined();
  });

  it('finds markers in JSDoc lines and one-line JSDoc, without the closing `*/`', () => {
    const optional = text.indexOf('+optional');
    expect(markerAtOffset(text, found, optional + 2)).toEqual({ start: optional, text: '+optional' });
    const nullable = text.indexOf('+nullable');
    expect(markerAtOffset(text, found, nullable + 2)).toEqual({ start: nullable, text: '+nullable' });
  });

  it('ignores `+` inside strings and not at the start of a comment line', () => {
    expect(markerAtOffset(text, found, text.indexOf('+notAComment') + 2)).toBeUndefined();
    expect(markerAtOffset(text, found, text.indexOf('+notAMarker') + 2)).toBeUndefined();
    expect(markerAtOffset(text, found, text.indexOf('a?: number') + 1)).toBeUndefined();
  });
});
