// maxDescLen truncation (§6.4).
import { limitDescriptions, truncateDescription } from './descriptions.js';

describe('truncateDescription', () => {
  it('cuts after the last sentence end within the limit', () => {
    expect(truncateDescription('One. Two is longer than the rest.', 12)).toBe('One.');
  });
  it('cuts at the last space and appends ... when there is no sentence end', () => {
    expect(truncateDescription('APIVersion defines the versioned schema of this representation of an object.', 50)).toBe(
      'APIVersion defines the versioned schema of this...',
    );
  });
  it('appends ... to a single long word', () => {
    expect(truncateDescription('abcdefghij', 4)).toBe('abcd...');
  });
  it('counts UTF-8 bytes and never splits a character', () => {
    expect(truncateDescription('ééééé', 3)).toBe('é...');
  });
  it('leaves short text alone', () => {
    expect(truncateDescription('short', 50)).toBe('short');
  });
});

describe('limitDescriptions', () => {
  it('removes every description with 0 and keeps them with a negative limit', () => {
    const schema = { description: 'root', properties: { a: { description: 'a', type: 'string' } }, type: 'object' };
    limitDescriptions(schema, -1);
    expect(schema.properties.a.description).toBe('a');
    limitDescriptions(schema, 0);
    expect(schema).toEqual({ properties: { a: { type: 'string' } }, type: 'object' });
  });
});
