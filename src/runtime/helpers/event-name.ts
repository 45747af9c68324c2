/**
 * Names of new Events: `<object>.<hex>` as client-go's `<name>.<hex of UnixNano>`, where the hex is the
 * clock's nanoseconds plus a sequence shared by every recorder of the process — on a virtual clock that
 * stands still between steps, two recorders writing about one object in the same instant still get two
 * names — and `createEvent`, which takes a fresh name if one is taken anyway (another process, or the
 * cluster's controllers on the same virtual instant).
 */
import { isAlreadyExists } from '../client/api-error.js';

let sequence = 0;

export function eventName(objectName: string | undefined, nowMs: number): string {
  const suffix = BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(sequence++ % 1_000_000);
  return `${objectName}.${suffix.toString(16)}`;
}

/**
 * Creates an Event named by `eventName`; on AlreadyExists takes the next name, up to 16 tries (on a virtual
 * clock the cluster's own controllers name their Events about the same object in the same instant too).
 * Returns the name used.
 */
export async function createEvent(objectName: string | undefined, nowMs: number, create: (name: string) => Promise<unknown>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const name = eventName(objectName, nowMs);
    try {
      await create(name);
      return name;
    } catch (err) {
      if (!isAlreadyExists(err) || attempt >= 16) throw err;
    }
  }
}
