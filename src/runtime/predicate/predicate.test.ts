/** Predicates and their combinators, per event type. */
import type { KubeObject } from '../client/object.js';
import { and, annotationChanged, generationChanged, labelChanged, newPredicate, not, or, resourceVersionChanged } from './predicate.js';

const obj = (meta: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', ...meta } });
const update = (oldMeta: Record<string, unknown>, newMeta: Record<string, unknown>) => ({ objectOld: obj(oldMeta), objectNew: obj(newMeta) });

describe('predicates', () => {
  test('generationChanged passes spec changes and drops status-only updates', () => {
    const p = generationChanged();
    expect(p.update(update({ generation: 1, resourceVersion: '5' }, { generation: 2, resourceVersion: '6' }))).toBe(true);
    expect(p.update(update({ generation: 1, resourceVersion: '5' }, { generation: 1, resourceVersion: '6' }))).toBe(false);
    expect(p.create({ object: obj({}) })).toBe(true);
    expect(p.delete({ object: obj({}) })).toBe(true);
  });

  test('resourceVersionChanged drops re-deliveries of the same version', () => {
    const p = resourceVersionChanged();
    expect(p.update(update({ resourceVersion: '5' }, { resourceVersion: '5' }))).toBe(false);
    expect(p.update(update({ resourceVersion: '5' }, { resourceVersion: '6' }))).toBe(true);
  });

  test('labelChanged and annotationChanged compare the maps, not their order', () => {
    expect(labelChanged().update(update({ labels: { a: '1', b: '2' } }, { labels: { b: '2', a: '1' } }))).toBe(false);
    expect(labelChanged().update(update({ labels: { a: '1' } }, { labels: { a: '2' } }))).toBe(true);
    expect(labelChanged().update(update({}, { labels: { a: '1' } }))).toBe(true);
    expect(annotationChanged().update(update({ annotations: { x: 'y' } }, {}))).toBe(true);
    expect(annotationChanged().update(update({ annotations: { x: 'y' } }, { annotations: { x: 'y' }, labels: { l: '1' } }))).toBe(false);
  });

  test('and / or / not combine per event type', () => {
    const gen = generationChanged();
    const labels = labelChanged();
    const labelOnly = update({ generation: 1, labels: { a: '1' } }, { generation: 1, labels: { a: '2' } });
    expect(or(gen, labels).update(labelOnly)).toBe(true);
    expect(and(gen, labels).update(labelOnly)).toBe(false);
    expect(not(gen).update(labelOnly)).toBe(true);
    expect(not(gen).create({ object: obj({}) })).toBe(false);
  });

  test('newPredicate filters every event type on the object', () => {
    const inNs = newPredicate((o) => o.metadata?.namespace === 'ns');
    expect(inNs.create({ object: obj({}) })).toBe(true);
    expect(inNs.generic({ object: obj({ namespace: 'other' }) })).toBe(false);
    expect(inNs.update(update({}, { namespace: 'other' }))).toBe(false);
  });
});

describe('async predicates in the combinators', () => {
  const named = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name } });
  const asked: string[] = [];
  const slowlyStartsWithA = newPredicate(async (o: KubeObject) => (asked.push(`async:${o.metadata?.name}`), o.metadata?.name?.startsWith('a') ?? false));
  const short = newPredicate((o: KubeObject) => (asked.push(`sync:${o.metadata?.name}`), (o.metadata?.name?.length ?? 0) < 4));

  test('and/or stay synchronous while every answer is, answer with a promise once one part is async, and stop at the deciding answer', async () => {
    asked.length = 0;
    expect(and(short, short).create({ object: named('abc') })).toBe(true);
    expect(or(short, short).create({ object: named('long-name') })).toBe(false);
    expect(and(short, slowlyStartsWithA).create({ object: named('long-name') })).toBe(false);
    expect(asked).toEqual(['sync:abc', 'sync:abc', 'sync:long-name', 'sync:long-name', 'sync:long-name']);
    asked.length = 0;
    await expect(and(short, slowlyStartsWithA).create({ object: named('abc') })).resolves.toBe(true);
    await expect(and(slowlyStartsWithA, short).update({ objectOld: named('x'), objectNew: named('bcd') })).resolves.toBe(false);
    await expect(or(slowlyStartsWithA, short).delete({ object: named('ab-long') })).resolves.toBe(true);
    await expect(not(slowlyStartsWithA).generic({ object: named('zzz') })).resolves.toBe(true);
    expect(asked).toEqual(['sync:abc', 'async:abc', 'async:bcd', 'async:ab-long', 'async:zzz']);
  });
});
