/**
 * System-owned metadata: seeded uids and generateName suffixes, second-precision timestamps on the
 * cluster clock, canonical comparison (for no-op detection) and the generation bump rules.
 */
import type { KubeObject } from '../store/object-store.js';
import type { ResourceType } from './resource-type.js';

const hexByte = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** A small seeded PRNG (mulberry32) so uids and names repeat for the same seed. */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Where the sequence stands: `moveTo` it later and the same draws follow. */
  position(): number {
    return this.state;
  }
  moveTo(position: number): void {
    this.state = position >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** RFC 4122 version 4 text: 16 draws, one byte each (every create takes one: no arrays, no closures). */
  uuid(): string {
    let text = '';
    for (let i = 0; i < 16; i++) {
      let byte = Math.floor(this.next() * 256);
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
      text += hexByte[byte];
    }
    return text;
  }
  /** Five characters from the alphabet kube-apiserver uses for generateName. */
  nameSuffix(): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let s = '';
    for (let i = 0; i < 5; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}

let lastSecond = NaN;
let lastText = '';

/** RFC 3339 with second precision in UTC, as metav1.Time serialises (the last second's text kept: the clock stays on one for many writes). */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises. */
export function rfc3339Micro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** JSON with object keys sorted, so key order never makes two equal objects differ. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as object).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Structural equality ignoring key order and undefined members (JSON semantics), with early exit. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let count = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    count++;
    if (!deepEqual(ao[k], bo[k])) return false;
  }
  for (const k in bo) if (bo[k] !== undefined) count--;
  return count === 0;
}

/** True when a write would store exactly what is stored (resourceVersion and managedFields times ignored). */
export function isNoOp(next: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => {
    const copy = { ...o, metadata: { ...o.metadata } };
    delete copy.metadata.resourceVersion;
    if (Array.isArray(copy.metadata.managedFields)) {
      copy.metadata.managedFields = copy.metadata.managedFields.map((m) => ({ ...m, time: undefined }));
    }
    return copy;
  };
  return deepEqual(strip(next), strip(old));
}

/** Whether an update changes what metadata.generation counts for this kind. */
export function generationChanged(rt: ResourceType, next: KubeObject, old: KubeObject): boolean {
  if (!rt.custom) return !deepEqual(next.spec ?? null, old.spec ?? null);
  const counted = (o: KubeObject): unknown => {
    const copy: Record<string, unknown> = { ...o };
    delete copy.metadata;
    if (rt.statusSubresource) delete copy.status;
    return copy;
  };
  return !deepEqual(counted(next), counted(old));
}
