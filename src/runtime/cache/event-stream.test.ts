/** EventStream: stages fused as taps run in order on each event, a tap's wait comes before the next pull, batches and single events agree. */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { EventStream } from './event-stream.js';
import { cm } from './testdata/scripted-server.js';
import type { WatchEvent } from './watch-event.js';

async function* three(pulls: string[]): AsyncGenerator<WatchEvent<ConfigMap>> {
  for (const name of ['a', 'b', 'c']) {
    pulls.push(name);
    yield { type: 'Apply', object: cm(name, '1') };
  }
}

test('taps see each event in stage order; iterating event by event over any async iterable', async () => {
  const seen: string[] = [];
  const pulls: string[] = [];
  const stream = EventStream.of(three(pulls))
    .through({ onEvent: (e) => void seen.push(`first ${(e as { object: ConfigMap }).object.metadata!.name}`) })
    .through({ onEvent: (e) => void seen.push(`second ${(e as { object: ConfigMap }).object.metadata!.name}`) });
  const out: string[] = [];
  for await (const e of stream) out.push((e as { object: ConfigMap }).object.metadata!.name!);
  expect(out).toEqual(['a', 'b', 'c']);
  expect(seen).toEqual(['first a', 'second a', 'first b', 'second b', 'first c', 'second c']);
});

test("a tap's wait holds the next pull; false ends the stream and closes the source", async () => {
  const pulls: string[] = [];
  let release: (go: boolean) => void = () => {};
  const stream = EventStream.of(three(pulls)).through({
    onEvent: (e) => ((e as { object: ConfigMap }).object.metadata!.name === 'a' ? new Promise<boolean>((r) => (release = r)) : undefined),
  });
  const batches = stream.batches();
  expect((await batches.next())!.length).toBe(1);
  const second = batches.next();
  await new Promise((r) => setImmediate(r));
  expect(pulls).toEqual(['a']); // waiting on the tap
  release(false);
  expect(await second).toBeUndefined();
  expect(pulls).toEqual(['a']);
});

test('onEnd runs once when the consumer leaves early', async () => {
  let ends = 0;
  const stream = EventStream.of(three([])).through({ onEvent: () => undefined, onEnd: () => void ends++ });
  for await (const _ of stream) break;
  expect(ends).toBe(1);
});
