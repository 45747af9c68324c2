/** Seeded uids: RFC 4122 version 4 text, the same sequence for the same seed. */
import { SeededRandom } from './system-metadata.js';

test('seeded uuids are version-4 RFC 4122 text and repeat exactly per seed', () => {
  const random = new SeededRandom(1);
  expect([random.uuid(), random.uuid(), random.nameSuffix()]).toEqual(['a00087fb-f747-4cb8-adfe-747d23673f27', '7d1165c4-4930-4a6d-97cc-4b34a88bc231', 'zq29j']);
  const long = new SeededRandom(42);
  const uuids = Array.from({ length: 1000 }, () => long.uuid());
  expect(uuids[999]).toBe('f3a2088c-a3d5-416b-a2bc-a491fd770e49');
  for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
