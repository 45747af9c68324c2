/**
 * `retryOnConflict`: re-runs a read-modify-write function while the server answers 409 Conflict
 * (someone else wrote the object first), as client-go's retry.RetryOnConflict does.
 */
import { isConflict } from './api-error.js';

export async function retryOnConflict<T>(fn: () => Promise<T>, options: { attempts?: number } = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || attempt >= attempts) throw err;
    }
  }
}
