/**
 * Names of new Events: `<object>.<hex>` as client-go's `<name>.<hex of UnixNano>`, where the hex is the
 * clock's nanoseconds plus a sequence shared by every recorder of the process — on a virtual clock that
 * stands still between steps, two recorders writing about one object in the same instant still get two
 * names — and `createEvent`, which takes a fresh name if one is taken anyway (another process).
 */
import { isAlreadyExists } from '../client/api-error.js';

let sequence = 0;

export function eventName(objectName: string | undefined, nowMs: number): string {
  const suffix = BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(sequence++ % 1_000_000);
  return `${objectName}.${suffix.toString(16)}`;
}

/** Creates an Event named by `eventName`; on AlreadyExists tries once more with the next name. Returns the name used. */
export async function createEvent(objectName: string | undefined, nowMs: number, create: (name: string) => Promise<unknown>): Promise<string> {
  const first = eventName(objectName, nowMs);
  try {
    await create(first);
    return first;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  const second = eventName(objectName, nowMs);
  await create(second);
  return second;
}
