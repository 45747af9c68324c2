import { afterEach, describe, expect, it } from '@jest/globals';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

async function recordEvent(): Promise<void> {
  await fx.core.createNamespacedEvent({
    namespace: 'default',
    body: { metadata: { name: 'note' }, involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'default' }, reason: 'Noted', message: 'hello', type: 'Normal', lastTimestamp: new Date('2024-01-15T10:00:00Z') },
  });
}
const eventNames = async () => (await fx.core.listNamespacedEvent({ namespace: 'default' })).items.map((e) => e.metadata!.name);

describe('event expiry', () => {
  it('an Event is gone one hour after its last write', async () => {
    fx = await startFixture();
    await recordEvent();
    await fx.advance(59 * 60_000);
    expect(await eventNames()).toEqual(['note']);
    await fx.advance(60_000);
    expect(await eventNames()).toEqual([]);
  });

  it('switched off with controllers.eventTtl: false', async () => {
    fx = await startFixture({ controllers: { eventTtl: false } });
    await recordEvent();
    await fx.advance(2 * 3_600_000);
    expect(await eventNames()).toEqual(['note']);
  });
});
