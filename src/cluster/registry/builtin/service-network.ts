/**
 * kind's service network: the Service CIDR 10.96.0.0/16 (with the addresses kubeadm reserves: .1 for
 * the `kubernetes` Service, .10 for kube-dns) and the NodePort range 30000–32767, with the address
 * arithmetic the allocators need.
 */
export const serviceCidr = '10.96.0.0/16';
export const kubernetesServiceIP = '10.96.0.1';
export const dnsServiceIP = '10.96.0.10';
export const nodePortRange = { first: 30000, last: 32767 };

const networkBase = ipv4ToNumber('10.96.0.0')!;
const prefixLength = 16;
const rangeSize = 2 ** (32 - prefixLength);
/**
 * kube-apiserver hands out dynamic addresses from the upper part of the range first, keeping the lower
 * band (min(max(16, size/16), 256) addresses) for static ones such as kube-dns's.
 */
export const staticBandSize = Math.min(Math.max(16, rangeSize / 16), 256);

/** `a.b.c.d` → number, undefined when not a dotted-quad IPv4 address. */
export function ipv4ToNumber(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export function numberToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** True for a usable address of the range (not the network address nor the broadcast address). */
export function inServiceRange(ip: string): boolean {
  const n = ipv4ToNumber(ip);
  if (n === undefined) return false;
  const offset = n - networkBase;
  return offset > 0 && offset < rangeSize - 1;
}

/** The n-th usable address of the dynamic band (wrapping). */
export function dynamicAddress(index: number): string {
  const size = rangeSize - 1 - staticBandSize;
  return numberToIpv4(networkBase + staticBandSize + (((index % size) + size) % size));
}

export const dynamicBandSize = rangeSize - 1 - staticBandSize;

/** A valid IP address (IPv4 dotted quad or an IPv6 text Node accepts). */
export function isIPAddress(text: string): boolean {
  if (ipv4ToNumber(text) !== undefined) return true;
  return /^[0-9a-fA-F:]+$/.test(text) && text.includes(':') && text.split('::').length <= 2;
}
