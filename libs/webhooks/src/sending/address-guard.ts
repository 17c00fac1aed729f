/**
 * D14: deliveries go only to public addresses. The check runs on the address a connection is
 * about to use (see guarded-lookup.ts), so a name that resolves to a private address, or that
 * changes its answer between the check at creation and the send (DNS rebinding), is refused.
 *
 * Parsing and range matching are Node's (`net.isIP`, `net.BlockList`, ADR 0100); this file
 * holds only the ranges, from IANA's special-purpose registries, and why each is refused.
 */
import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';
type Range = readonly [cidr: string, reason: string];

/** IPv4 ranges that are not globally reachable unicast. */
const V4_RANGES: readonly Range[] = [
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

/**
 * IPv6 ranges that are not globally reachable unicast. NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16) addresses go where their embedded IPv4 address goes: they are refused by the IPv4
 * ranges moved into them (below), and public otherwise.
 */
const V6_RANGES: readonly Range[] = [
  ['::/96', 'unspecified, loopback or IPv4-compatible'],
  // SIIT (RFC 7915): a translator sends it to the IPv4 address in its last 32 bits.
  ['::ffff:0:0:0/96', 'IPv4-translated'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'IETF protocol assignments (Teredo, ...)'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

/** Outside it an IPv6 address is not global unicast, whatever the registry adds later. */
const V6_GLOBAL_UNICAST = '2000::/3';

/** The IPv6 prefixes that carry an IPv4 address: its first word, and how to name them. */
const V4_CARRIERS = [
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], at: 96, name: 'NAT64' },
  { prefix: [0x2002], at: 16, name: '6to4' },
] as const;

interface NamedList {
  reason: string;
  list: BlockList;
}

function blockList(cidrs: readonly string[], family: Family): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/');
    list.addSubnet(address!, Number(bits), family);
  }
  return list;
}

function named(ranges: readonly Range[], family: Family): NamedList[] {
  return ranges.map(([cidr, reason]) => ({ reason, list: blockList([cidr], family) }));
}

/** An IPv4 range moved into an IPv6 carrier prefix: `2002::/16` + `10.0.0.0/8` → `2002:a00::/24`. */
function carried(prefix: readonly number[], at: number, cidr: string): string {
  const [address, bits] = cidr.split('/');
  const [a, b, c, d] = address!.split('.').map(Number) as [number, number, number, number];
  const words = [...prefix, ...new Array<number>(8 - prefix.length).fill(0)];
  words[at / 16] = (a << 8) | b;
  words[at / 16 + 1] = (c << 8) | d;
  return `${words.map((w) => w.toString(16)).join(':')}/${at + Number(bits)}`;
}

const V4_NAMED = named(V4_RANGES, 'ipv4');
/** One list holding every refused IPv4 range: a public address costs one look-up. */
const V4_ANY = blockList(
  V4_RANGES.map(([cidr]) => cidr),
  'ipv4',
);
/** Node's BlockList matches IPv4-mapped IPv6 (::ffff:a.b.c.d) against IPv4 rules itself. */
const V4_MAPPED = blockList(['::ffff:0:0/96'], 'ipv6');
const V6_NAMED: NamedList[] = [
  ...named(V6_RANGES, 'ipv6'),
  ...V4_CARRIERS.flatMap(({ prefix, at, name }) =>
    V4_RANGES.map(([cidr, reason]) => ({
      reason: `${name} ${reason}`,
      list: blockList([carried(prefix, at, cidr)], 'ipv6'),
    })),
  ),
];
const V6_PUBLIC = blockList(
  [V6_GLOBAL_UNICAST, ...V4_CARRIERS.map(({ prefix, at }) => carried(prefix, at, '0.0.0.0/0'))],
  'ipv6',
);

function firstMatch(lists: readonly NamedList[], address: string, family: Family): string | null {
  for (const { reason, list } of lists) if (list.check(address, family)) return reason;
  return null;
}

function v4Reason(address: string): string | null {
  return V4_ANY.check(address, 'ipv4') ? firstMatch(V4_NAMED, address, 'ipv4') : null;
}

function v6Reason(address: string): string | null {
  if (V4_MAPPED.check(address, 'ipv6')) {
    // The socket would reach that IPv4 address.
    const why = V4_ANY.check(address, 'ipv6') ? firstMatch(V4_NAMED, address, 'ipv6') : null;
    return why ? `IPv4-mapped ${why}` : null;
  }
  const why = firstMatch(V6_NAMED, address, 'ipv6');
  if (why) return why;
  // NAT64 and 6to4 addresses of public IPv4 addresses are public; so is the rest of 2000::/3.
  return V6_PUBLIC.check(address, 'ipv6') ? null : 'not global unicast';
}

/**
 * The address as `net` takes it: an IPv6 address without brackets (a URL's host) or zone
 * (`fe80::1%eth0`).
 * BlockList answers false for text it cannot parse, so anything `isIP` refuses is refused here.
 */
function normalise(address: string): { address: string; family: Family } | null {
  if (isIP(address) === 4) return { address, family: 'ipv4' };
  let text = address;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  return isIP(text) === 6 ? { address: text, family: 'ipv6' } : null;
}

/** Why an address is not public, or null when it is. Unparseable input is refused. */
export function nonPublicReason(address: string): string | null {
  const parsed = normalise(address);
  if (!parsed) return 'not an IP address';
  return parsed.family === 'ipv4' ? v4Reason(parsed.address) : v6Reason(parsed.address);
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
