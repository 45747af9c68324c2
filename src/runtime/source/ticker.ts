/**
 * Ticker sources fire every `intervalMs` of clock time (virtual in tests) and emit a generic event per
 * object returned by `objects()` — the periodic health-check pattern (`everyObjectOf(kind, 60_000)`
 * reconciles every object of a kind once a minute).
 */
import type { Timer } from '../clock.js';
import type { KindRef } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import type { Dispatch, Source, SourceContext } from './source.js';

export interface TickerOptions<T extends KubeObject> {
  intervalMs: number;
  /** The objects to emit on each tick. */
  objects(context: SourceContext): T[] | Promise<T[]>;
}

export function tickerSource<T extends KubeObject>(options: TickerOptions<T>): Source<T> {
  if (!(options.intervalMs > 0)) throw new Error(`tickerSource: intervalMs must be > 0, got ${options.intervalMs}`);
  let timer: Timer | undefined;
  let generation = 0;
  return {
    start(dispatch: Dispatch<T>, context: SourceContext) {
      timer?.cancel();
      const mine = ++generation;
      const tick = (at: number): void => {
        timer = context.clock.schedule(at, () => {
          if (mine !== generation) return;
          tick(at + options.intervalMs);
          Promise.resolve(options.objects(context)).then(
            (objects) => {
              if (mine === generation) for (const object of objects) dispatch.generic({ object });
            },
            (err: unknown) => context.logger?.error({ err: String(err) }, 'ticker source: listing objects failed'),
          );
        });
      };
      tick(context.clock.now() + options.intervalMs);
    },
    stop() {
      generation++;
      timer?.cancel();
      timer = undefined;
    },
  };
}

/** Every object of `kind` in the manager's cache, each `intervalMs`. */
export function everyObjectOf<T extends KubeObject>(kind: KindRef<T>, intervalMs: number): Source<T> {
  return tickerSource<T>({ intervalMs, objects: (ctx) => [...ctx.cache.informerFor(kind).store.values()] });
}
