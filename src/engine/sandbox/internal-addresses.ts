import { BlockList, isIP } from 'node:net';

/*
 * Which addresses are internal, for the egress proxy: the host itself, its networks, the
 * cloud's metadata service, and every other range of IANA's special-purpose registries (v4 and
 * v6), reached by no sandbox unless the operator named them. Node's BlockList parses every
 * textual form; a v6 address that carries a v4 one (mapped, translated, compatible, NAT64,
 * 6to4, Teredo) is checked as that v4 address too.
 */

const V4_RANGES: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local: the cloud's metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112 direct delegation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the limited broadcast 255.255.255.255
];

const V6_RANGES: [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible (::a.b.c.d)
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // NAT64, local use
  ['100::', 63], // discard-only, dummy prefix
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID, AMT, AS112
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['2620:4f:8000::', 48], // AS112
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  // Besides: all but 2000::/3, the only space given out as global unicast.
  ['::', 3],
  ['4000::', 2],
  ['8000::', 1],
];

// Two lists: a v4 address checked against a v6 range would be taken as mapped (::ffff:0:0/96 holds every one).
const V4 = new BlockList();
for (const [net, bits] of V4_RANGES) V4.addSubnet(net, bits, 'ipv4');
const V6 = new BlockList();
for (const [net, bits] of V6_RANGES) V6.addSubnet(net, bits, 'ipv6');

/** Whether no sandbox reaches `address` unless the operator named it; anything not an address counts as internal. */
export function isInternal(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return V4.check(address, 'ipv4');
    case 6:
      return V6.check(address, 'ipv6') || carriedIpv4(address).some((v4) => V4.check(v4, 'ipv4'));
    default:
      return true;
  }
}

/** The v4 addresses a v6 one carries: mapped, translated or compatible (::ffff:a.b.c.d, ::a.b.c.d), NAT64, 6to4, Teredo's client. */
export function carriedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const zeros = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  const carried: string[] = [];
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) carried.push(v4(g[6]!, g[7]!)); // ::ffff:a.b.c.d, ::a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) carried.push(v4(g[6]!, g[7]!)); // ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) carried.push(v4(g[6]!, g[7]!)); // 64:ff9b::a.b.c.d
  if (g[0] === 0x2002) carried.push(v4(g[1]!, g[2]!)); // 2002:AABB:CCDD::
  if (g[0] === 0x2001 && g[1] === 0) carried.push(v4(g[6]! ^ 0xffff, g[7]! ^ 0xffff)); // Teredo: the client, obfuscated
  return carried;
}

/** A v6 address's eight 16-bit groups (any textual form, a zone left out), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return undefined;
  // The URL parser writes it canonically: hex groups, at most one `::`, no dotted tail.
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const gap = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...gap, ...right].map((group) => parseInt(group, 16));
}
