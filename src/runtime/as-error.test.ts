/** asError / isError: errors from another realm (Node's socket errors seen from jest, a vm context) keep their code. */
import { runInNewContext } from 'node:vm';
import { asError, isError } from './as-error.js';

const otherRealmRefused = (): unknown => runInNewContext(`Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' })`);

test('an Error from another realm is not instanceof Error here, and asError returns it as it is, code and all', () => {
  const err = otherRealmRefused();
  expect(err instanceof Error).toBe(false); // what made the old `instanceof Error ? err : new Error(String(err))` drop the code
  expect(isError(err)).toBe(true);
  expect(asError(err)).toBe(err);
  expect((asError(err) as Error & { code?: string }).code).toBe('ECONNREFUSED');
});

test('a thrown value that is no Error becomes one with its text, keeping the value as the cause', () => {
  const wrapped = asError({ toString: () => 'a plain object' });
  expect(wrapped).toBeInstanceOf(Error);
  expect(wrapped.message).toBe('a plain object');
  expect(wrapped.cause).toEqual(expect.objectContaining({}));
  expect(asError('text').message).toBe('text');
  expect(asError('text').cause).toBe('text');
  expect(isError('text')).toBe(false);
  const own = new TypeError('same realm');
  expect(asError(own)).toBe(own);
});
