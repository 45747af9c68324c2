// toYamlPieces: a document as its own text plus shared pieces (the text of frozen subtrees used again), so
// files that embed the same subtree encode it once. Joined, the pieces are exactly toYaml's text; encoded, they
// are exactly its UTF-8 bytes; and a long frozen subtree used by two documents is one shared piece in both.
import { encodeYamlPieces, joinYamlPieces, SharedText, toYaml, toYamlPieces } from './emit.js';

function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) freezeDeep(child);
  }
  return value;
}

/** A frozen schema-like subtree longer than the shared-piece threshold, with folded and non-ASCII text. */
function bigFrozenSubtree(): unknown {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 60; i++) {
    properties[`field${i}`] = {
      description: `Field ${i} of the embedded template: a description long enough to be folded past column eighty, with 'quotes' and é → ✓.`,
      type: i % 2 ? 'string' : 'integer',
    };
  }
  return freezeDeep({ type: 'object', properties, required: ['field1', 'field2'] });
}

describe('toYamlPieces', () => {
  const shared = bigFrozenSubtree();
  const documentFor = (name: string): unknown => ({ metadata: { name }, spec: { template: shared, list: [shared] } });

  it('joins to exactly the text of toYaml, first use and later uses alike', () => {
    for (const name of ['first', 'second', 'third']) {
      const pieces = toYamlPieces(documentFor(name));
      expect(joinYamlPieces(pieces)).toBe(toYaml(documentFor(name)));
    }
  });

  it('encodes to exactly the UTF-8 bytes of the text', () => {
    const pieces = toYamlPieces(documentFor('bytes'));
    expect(Buffer.concat(encodeYamlPieces(pieces)).equals(Buffer.from(joinYamlPieces(pieces), 'utf8'))).toBe(true);
    expect(encodeYamlPieces(pieces).every((bytes) => bytes.length > 0)).toBe(true);
  });

  it('gives a long frozen subtree used again as one shared piece, encoded once for every document', () => {
    toYamlPieces(documentFor('warm-up'));
    const a = toYamlPieces(documentFor('a')).filter((p): p is SharedText => p instanceof SharedText);
    const b = toYamlPieces(documentFor('b')).filter((p): p is SharedText => p instanceof SharedText);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    for (let i = 0; i < a.length; i++) {
      expect(b[i]).toBe(a[i]);
      expect(b[i]!.bytes).toBe(a[i]!.bytes); // the same bytes, not an equal copy
    }
  });

  it('keeps short frozen subtrees and unfrozen values inside its own text', () => {
    const small = freezeDeep({ type: 'string' });
    const pieces = toYamlPieces({ a: small, b: small, c: { d: 'plain' } });
    expect(pieces.some((p) => p instanceof SharedText)).toBe(false);
    expect(joinYamlPieces(pieces)).toBe('a:\n  type: string\nb:\n  type: string\nc:\n  d: plain\n');
  });
});

describe('key order of mappings written again', () => {
  it('gives the same order for a key set met again, whatever the order of its keys', () => {
    expect(toYaml({ type: 'object', description: 'd', properties: {} })).toBe(toYaml({ properties: {}, type: 'object', description: 'd' }));
    expect(toYaml({ b10: 1, b9: 2, a: 3 })).toBe('a: 3\nb9: 2\nb10: 1\n');
    expect(toYaml({ b10: 1, b9: 2, a: 3 })).toBe('a: 3\nb9: 2\nb10: 1\n');
  });
});
