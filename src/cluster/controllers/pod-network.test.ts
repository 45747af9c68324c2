/** claimPodNetwork: each local cluster on a machine gets a block of pod addresses of its own, given back at release. */
import { claimPodNetwork } from './pod-network.js';

test('two claims get two blocks; a released block is claimed again', async () => {
  const first = await claimPodNetwork();
  const second = await claimPodNetwork();
  try {
    expect(second.octet).not.toBe(first.octet);
    expect([first.octet, second.octet].every((o) => o >= 200 && o <= 254)).toBe(true);
  } finally {
    second.release();
  }
  const third = await claimPodNetwork();
  try {
    expect(third.octet).toBe(second.octet);
  } finally {
    third.release();
    first.release();
  }
});
