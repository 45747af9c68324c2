/**
 * The `pod-template-hash` of a Deployment's ReplicaSets, as controller.ComputeHash makes it: FNV-32a over
 * the pod template printed by go-spew (hashutil.DeepHashObject), then the collision count's 8 little-endian
 * bytes, the 32-bit sum in decimal, each digit mapped by rand.SafeEncodeString.
 */
import { spewPodTemplate } from './go-spew-template.js';

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a, 32 bits, over bytes. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each byte to a character that cannot spell words. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += safeAlphabet[b % safeAlphabet.length];
  return out;
}

export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(spewPodTemplate(template), 'utf8'));
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}
