/** ObjectStore indexes follow every upsert and remove, for single- and multi-valued index functions. */
import { ObjectStore } from './object-store.js';

interface Item {
  name: string;
  node?: string;
  tags?: string[];
}

function store(): ObjectStore<Item> {
  const s = new ObjectStore<Item>();
  s.addIndex('node', (o) => o.node);
  s.addIndex('tags', (o) => o.tags);
  return s;
}

test('an updated object moves between index values; its old values no longer list it', () => {
  const s = store();
  s.upsert('a', { name: 'a', node: 'n1', tags: ['x', 'y'] });
  s.upsert('b', { name: 'b', node: 'n1', tags: ['y'] });
  expect(s.byIndex('node', 'n1')).toEqual(['a', 'b']);
  expect(s.byIndex('tags', 'y')).toEqual(['a', 'b']);
  const old = s.upsert('a', { name: 'a', node: 'n2', tags: ['z'] });
  expect(old).toEqual({ name: 'a', node: 'n1', tags: ['x', 'y'] });
  expect(s.byIndex('node', 'n1')).toEqual(['b']);
  expect(s.byIndex('node', 'n2')).toEqual(['a']);
  expect(s.byIndex('tags', 'x')).toEqual([]);
  expect(s.byIndex('tags', 'y')).toEqual(['b']);
  expect(s.byIndex('tags', 'z')).toEqual(['a']);
});

test('remove takes the object out of every index; objects without a value are not indexed', () => {
  const s = store();
  s.upsert('a', { name: 'a', node: 'n1', tags: ['x'] });
  s.upsert('c', { name: 'c' });
  expect(s.remove('a')?.name).toBe('a');
  expect(s.remove('a')).toBeUndefined();
  expect(s.byIndex('node', 'n1')).toEqual([]);
  expect(s.byIndex('tags', 'x')).toEqual([]);
  expect(s.size).toBe(1);
});

test('an index added later is filled from the stored objects; an unknown index is a clear error', () => {
  const s = new ObjectStore<Item>();
  s.upsert('a', { name: 'a', node: 'n1' });
  s.addIndex('node', (o) => o.node);
  expect(s.byIndex('node', 'n1')).toEqual(['a']);
  expect(() => s.addIndex('node', (o) => o.node)).toThrow('index "node" already exists');
  expect(() => s.byIndex('zone', 'z')).toThrow('no index named "zone": register it with indexField() before the cache starts');
});

test('an update that keeps its index values leaves the index untouched (the key keeps its place)', () => {
  const s = store();
  s.upsert('a', { name: 'a', node: 'n1', tags: ['x'] });
  s.upsert('b', { name: 'b', node: 'n1', tags: ['x'] });
  s.upsert('a', { name: 'a2', node: 'n1', tags: ['x'] });
  expect(s.get('a')?.name).toBe('a2');
  expect(s.byIndex('node', 'n1')).toEqual(['a', 'b']);
  expect(s.byIndex('tags', 'x')).toEqual(['a', 'b']);
  s.upsert('a', { name: 'a3', node: 'n1', tags: ['x', 'y'] });
  expect(s.byIndex('tags', 'x')).toEqual(['b', 'a']);
  expect(s.byIndex('tags', 'y')).toEqual(['a']);
});

test('a lazy index is not computed on changes until its first lookup builds it; from then on it follows every change', () => {
  const s = new ObjectStore<Item>();
  const calls: string[] = [];
  s.addIndex('node', (o) => (calls.push(o.name), o.node), { lazy: true });
  s.upsert('a', { name: 'a', node: 'n1' });
  s.upsert('b', { name: 'b', node: 'n2' });
  s.upsert('a', { name: 'a', node: 'n2' });
  s.remove('b');
  s.upsert('c', { name: 'c', node: 'n2' });
  expect(calls).toEqual([]);
  expect(s.hasIndex('node')).toBe(true);
  expect(() => s.addIndex('node', (o) => o.node)).toThrow('index "node" already exists');
  expect(s.byIndex('node', 'n2')).toEqual(['a', 'c']);
  expect(s.byIndex('node', 'n1')).toEqual([]);
  expect(calls).toEqual(['a', 'c']);
  s.upsert('d', { name: 'd', node: 'n1' });
  s.upsert('a', { name: 'a', node: 'n1' });
  expect(s.byIndex('node', 'n1')).toEqual(['d', 'a']);
  expect(s.byIndex('node', 'n2')).toEqual(['c']);
});
