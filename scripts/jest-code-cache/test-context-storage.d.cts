/** See test-context-storage.cjs. */
export declare class CurrentValueStorage<T> {
  getStore(): T | undefined;
  run<R, A extends unknown[]>(store: T | undefined, callback: (...args: A) => R, ...args: A): R;
  enterWith(store: T): void;
  exit<R, A extends unknown[]>(callback: (...args: A) => R, ...args: A): R;
  disable(): void;
}
export declare const asyncHooksForJestCircus: typeof import('node:async_hooks');
export declare function isJestCircus(from: unknown): boolean;
