// importInTurn: lazy imports start one after another, in the order asked, and a failed one does not stop the next.
import { importInTurn } from './import-in-turn.js';

describe('importInTurn', () => {
  it('starts each load only after the one before has settled, in the order asked', async () => {
    const events: string[] = [];
    const slow = (name: string, ms: number, fail = false) => () =>
      new Promise<string>((resolve, reject) => {
        events.push(`start ${name}`);
        setTimeout(() => {
          events.push(`end ${name}`);
          if (fail) reject(new Error(name));
          else resolve(name);
        }, ms);
      });
    const results = await Promise.allSettled([importInTurn(slow('a', 20)), importInTurn(slow('b', 1, true)), importInTurn(slow('c', 5))]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<string>).value).toBe('c');
  });
});
