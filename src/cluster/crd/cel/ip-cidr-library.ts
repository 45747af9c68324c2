/** Kubernetes' CEL IP and CIDR libraries (enabled for CRD rules since 1.30), with Go netip's parsing rules. */
import type { Environment } from '@marcbachmann/cel-js';

/** An IP address: family and value as a 32- or 128-bit integer. */
export class IPAddress {
  constructor(
    readonly family: 4 | 6,
    readonly value: bigint,
  ) {}

  get bits(): number {
    return this.family === 4 ? 32 : 128;
  }

  toString(): string {
    if (this.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((this.value >> s) & 255n)).join('.');
    const groups = Array.from({ length: 8 }, (_, i) => Number((this.value >> BigInt(112 - 16 * i)) & 0xffffn));
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8; ) {
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLen) [best, bestLen] = [i, j - i];
      i = j === i ? i + 1 : j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (best < 0) return hex.join(':');
    return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
  }

  inRange(prefix: bigint, length: number): boolean {
    const shift = BigInt(this.bits - length);
    return this.value >> shift === prefix >> shift;
  }

  equals(other: unknown): boolean {
    return other instanceof IPAddress && other.family === this.family && other.value === this.value;
  }
}

/** A network prefix as written (address and length). */
export class CIDR {
  constructor(
    readonly address: IPAddress,
    readonly length: number,
  ) {}

  masked(): CIDR {
    const shift = BigInt(this.address.bits - this.length);
    return new CIDR(new IPAddress(this.address.family, (this.address.value >> shift) << shift), this.length);
  }

  contains(ip: IPAddress): boolean {
    return ip.family === this.address.family && ip.inRange(this.address.value, this.length);
  }

  toString(): string {
    return `${this.address}/${this.length}`;
  }

  equals(other: unknown): boolean {
    return other instanceof CIDR && other.length === this.length && other.address.equals(this.address);
  }
}

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return undefined;
    v = (v << 8n) | BigInt(p);
  }
  return v;
}

function parseV6(s: string): bigint | undefined {
  let text = s;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string): bigint[] | undefined => {
    if (h === '') return [];
    const gs = h.split(':');
    if (gs.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
    return gs.map((g) => BigInt(`0x${g}`));
  };
  const head = group(halves[0] ?? '');
  const rest = halves.length === 2 ? group(halves[1] ?? '') : [];
  if (!head || !rest) return undefined;
  const given = head.length + rest.length;
  if (halves.length === 2 ? given > 7 : given !== 8) return undefined;
  const all = [...head, ...Array<bigint>(8 - given).fill(0n), ...rest];
  return all.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses an address as k8s' CEL ip() does: no zones, no IPv4-mapped IPv6, no leading zeros. */
export function parseIP(raw: string): IPAddress {
  if (raw.includes('%')) throw new Error(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  const v4 = raw.includes(':') ? undefined : parseV4(raw);
  if (v4 !== undefined) return new IPAddress(4, v4);
  const v6 = raw.includes(':') ? parseV6(raw) : undefined;
  if (v6 === undefined) throw new Error(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): unable to parse IP`);
  if (v6 >> 32n === 0xffffn) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return new IPAddress(6, v6);
}

/** Parses a prefix as k8s' CEL cidr() does. */
export function parseCIDR(raw: string): CIDR {
  const slash = raw.lastIndexOf('/');
  const fail = (why: string): never => {
    throw new Error(`network address ${JSON.stringify(raw)} parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(raw)}): ${why}`);
  };
  if (slash < 0) fail("no '/'");
  let address: IPAddress;
  try {
    address = parseIP(raw.slice(0, slash));
  } catch (err) {
    if (/zone|IPv4-mapped/.test((err as Error).message)) throw err;
    return fail('ParseAddr: unable to parse IP');
  }
  const bits = raw.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bits) || Number(bits) > address.bits) fail(`bad bits after slash: ${JSON.stringify(bits)}`);
  return new CIDR(address, Number(bits));
}

const isOk = (parse: () => unknown): boolean => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

function isGlobalUnicast(ip: IPAddress): boolean {
  if (ip.family === 4) {
    return !(ip.value === 0n || ip.value === 0xffffffffn || ip.inRange(0x7f000000n, 8) || ip.inRange(0xe0000000n, 4) || ip.inRange(0xa9fe0000n, 16));
  }
  return !(ip.value === 0n || ip.value === 1n || ip.inRange(0xffn << 120n, 8) || ip.inRange(0xfe80n << 112n, 10));
}

class IPNamespace {}

/** Registers ip(), ip.isCanonical(), isIP(), cidr(), isCIDR() and the net.IP / net.CIDR methods. */
export function registerIpCidrLibrary(env: Environment): void {
  env
    .registerType('net.IP', IPAddress)
    .registerType('net.CIDR', CIDR)
    .registerType('IPNamespace', IPNamespace)
    .registerConstant('ip', 'IPNamespace', new IPNamespace())
    .registerFunction('IPNamespace.isCanonical(string): bool', (_ns: unknown, s: string) => parseIP(s).toString() === s)
    .registerFunction('ip(string): net.IP', parseIP)
    .registerFunction('isIP(string): bool', (s: string) => isOk(() => parseIP(s)))
    .registerFunction('string(net.IP): string', (ip: IPAddress) => ip.toString())
    .registerFunction('net.IP.family(): int', (ip: IPAddress) => BigInt(ip.family))
    .registerFunction('net.IP.isUnspecified(): bool', (ip: IPAddress) => ip.value === 0n)
    .registerFunction('net.IP.isLoopback(): bool', (ip: IPAddress) => (ip.family === 4 ? ip.inRange(0x7f000000n, 8) : ip.value === 1n))
    .registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: IPAddress) => (ip.family === 4 ? ip.inRange(0xe0000000n, 24) : ip.inRange(0xff02n << 112n, 16)))
    .registerFunction('net.IP.isLinkLocalUnicast(): bool', (ip: IPAddress) => (ip.family === 4 ? ip.inRange(0xa9fe0000n, 16) : ip.inRange(0xfe80n << 112n, 10)))
    .registerFunction('net.IP.isGlobalUnicast(): bool', isGlobalUnicast)
    .registerFunction('cidr(string): net.CIDR', parseCIDR)
    .registerFunction('isCIDR(string): bool', (s: string) => isOk(() => parseCIDR(s)))
    .registerFunction('string(net.CIDR): string', (c: CIDR) => c.toString())
    .registerFunction('net.CIDR.containsIP(string): bool', (c: CIDR, s: string) => c.contains(parseIP(s)))
    .registerFunction('net.CIDR.containsIP(net.IP): bool', (c: CIDR, ip: IPAddress) => c.contains(ip))
    .registerFunction('net.CIDR.containsCIDR(string): bool', (c: CIDR, s: string) => {
      const other = parseCIDR(s);
      return other.length >= c.length && c.contains(other.address);
    })
    .registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', (c: CIDR, other: CIDR) => other.length >= c.length && c.contains(other.address))
    .registerFunction('net.CIDR.ip(): net.IP', (c: CIDR) => c.address)
    .registerFunction('net.CIDR.masked(): net.CIDR', (c: CIDR) => c.masked())
    .registerFunction('net.CIDR.prefixLength(): int', (c: CIDR) => BigInt(c.length))
    .registerOperator('net.IP == net.IP', (a: IPAddress, b: IPAddress) => a.equals(b))
    .registerOperator('net.CIDR == net.CIDR', (a: CIDR, b: CIDR) => a.equals(b));
}
