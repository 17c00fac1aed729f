/**
 * D14: deliveries go only to public addresses. The check runs on the address a connection is
 * about to use (see guarded-lookup.ts), so a name that resolves to a private address, or that
 * changes its answer between the check at creation and the send (DNS rebinding), is refused.
 */

type Parsed = { family: 4; bytes: number[] } | { family: 6; bytes: number[] };

/** Dotted-quad IPv4 as DNS and sockets report it (no octal, hex or short forms). */
function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIpv6(input: string): number[] | null {
  let text = input;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (!text.includes(':')) return null;
  // An embedded IPv4 tail (::ffff:1.2.3.4) is rewritten as its two hex groups.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (halves.length === 1 ? head.length !== 8 : head.length + rest.length > 7) return null;
  const words: number[] = [];
  for (const g of head) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    words.push(parseInt(g, 16));
  }
  if (halves.length === 2) for (let i = head.length + rest.length; i < 8; i++) words.push(0);
  for (const g of rest) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    words.push(parseInt(g, 16));
  }
  const bytes: number[] = [];
  for (const w of words) bytes.push(w >> 8, w & 0xff);
  return bytes;
}

export function parseIpAddress(text: string): Parsed | null {
  const v4 = parseIpv4(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIpv6(text);
  return v6 ? { family: 6, bytes: v6 } : null;
}

function inV4(b: number[], prefix: [number, number, number, number], bits: number): boolean {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    if (take === 0) return true;
    const mask = (0xff << (8 - take)) & 0xff;
    if ((b[i]! & mask) !== (prefix[i]! & mask)) return false;
  }
  return true;
}

/** IPv4 ranges that are not globally reachable unicast (IANA special-purpose registry). */
const V4_BLOCKED: Array<[[number, number, number, number], number, string]> = [
  [[0, 0, 0, 0], 8, 'this network'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared address space (CGNAT)'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, '6to4 relay anycast'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmarking'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

function v4Block(b: number[]): string | null {
  for (const [prefix, bits, why] of V4_BLOCKED) if (inV4(b, prefix, bits)) return why;
  return null;
}

function prefixEquals(b: number[], words: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const word = words[i >> 4] ?? 0;
    const expectedByte = byte % 2 === 0 ? word >> 8 : word & 0xff;
    const bit = 7 - (i & 7);
    if (((b[byte]! >> bit) & 1) !== ((expectedByte >> bit) & 1)) return false;
  }
  return true;
}

function v6Block(b: number[]): string | null {
  const firstTenZero = b.slice(0, 10).every((x) => x === 0);
  if (firstTenZero && b[10] === 0xff && b[11] === 0xff) {
    // IPv4-mapped (::ffff:a.b.c.d): the socket would reach that IPv4 address.
    const why = v4Block(b.slice(12));
    return why ? `IPv4-mapped ${why}` : null;
  }
  if (firstTenZero && b[10] === 0 && b[11] === 0) return 'unspecified, loopback or IPv4-compatible';
  if (prefixEquals(b, [0x64, 0xff9b, 0, 0, 0, 0], 96)) {
    const why = v4Block(b.slice(12));
    return why ? `NAT64 ${why}` : null;
  }
  if (prefixEquals(b, [0x64, 0xff9b, 0x1], 48)) return 'local-use NAT64';
  if (prefixEquals(b, [0x100, 0, 0, 0], 64)) return 'discard-only';
  if (prefixEquals(b, [0x2001, 0x0db8], 32)) return 'documentation';
  if (prefixEquals(b, [0x2001, 0], 23)) return 'IETF protocol assignments (Teredo, ...)';
  if (prefixEquals(b, [0x2002], 16)) {
    // 6to4: the embedded IPv4 address is where it goes.
    const why = v4Block(b.slice(2, 6));
    return why ? `6to4 ${why}` : null;
  }
  if (prefixEquals(b, [0x3fff], 20)) return 'documentation';
  if (prefixEquals(b, [0x5f00], 16)) return 'segment routing';
  if (prefixEquals(b, [0xfc00], 7)) return 'unique local';
  if (prefixEquals(b, [0xfe80], 10)) return 'link-local';
  if (prefixEquals(b, [0xfec0], 10)) return 'site-local';
  if (prefixEquals(b, [0xff00], 8)) return 'multicast';
  if (!prefixEquals(b, [0x2000], 3)) return 'not global unicast';
  return null;
}

/** Why an address is not public, or null when it is. Unparseable input is refused. */
export function nonPublicReason(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed) return 'not an IP address';
  return parsed.family === 4 ? v4Block(parsed.bytes) : v6Block(parsed.bytes);
}

export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === null;
}

/** The transport refused a target before connecting (D14). */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(
      host === address
        ? `${address} is not a public address (${reason})`
        : `${host} resolves to ${address}, not a public address (${reason})`,
    );
    this.name = 'BlockedAddressError';
  }
}
