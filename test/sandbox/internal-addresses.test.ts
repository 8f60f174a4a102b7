import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carriedIpv4, isInternal } from '../../src/engine/sandbox/internal-addresses.ts';

// The egress proxy's classifier, against this test's own list of IANA's special-purpose
// ranges (and the embeddings that carry a v4 address in v6), in every way an address is written.

const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGN)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, the metadata service'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'TEST-NET-1'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112 delegation'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'TEST-NET-2'],
  ['203.0.113.0', 24, 'TEST-NET-3'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, broadcast'],
];

const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible'],
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['::ffff:0:0:0', 96, 'IPv4-translated'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64 local use'],
  ['100::', 64, 'discard-only'],
  ['2001::', 32, 'Teredo'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:20::', 28, 'ORCHIDv2'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['2620:4f:8000::', 48, 'AS112'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

const v4Number = (text: string) => text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const v4Text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
function v6Number(text: string): bigint {
  const [head = '', tail = ''] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = text.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}
const groupsOf = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn));
const inV4 = (n: number) => V4.some(([net, bits]) => bits === 0 || n >>> (32 - bits) === v4Number(net) >>> (32 - bits));
const inV6 = (n: bigint) => V6.some(([net, bits]) => n >> BigInt(128 - bits) === v6Number(net) >> BigInt(128 - bits));

/** The ways one v6 address is written: compressed, in full, zero-padded, in capitals, with a dotted tail. */
function v6Forms(n: bigint): string[] {
  const g = groupsOf(n).map((x) => x.toString(16));
  const full = g.join(':');
  // The longest run of zero groups as `::`.
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === '0') j++;
    if (j - i > best.length) best = { at: i, length: j - i };
  }
  const compressed = best.length < 2 ? full : `${g.slice(0, best.at).join(':')}::${g.slice(best.at + best.length).join(':')}`;
  const tail = v4Text(Number(n & 0xffffffffn));
  return [
    compressed,
    full,
    groupsOf(n)
      .map((x) => x.toString(16).padStart(4, '0'))
      .join(':'),
    compressed.toUpperCase(),
    `${g.slice(0, 6).join(':')}:${tail}`,
  ];
}

/** The ways a v4 address is written, as itself and carried in v6. */
function v4Forms(n: number): string[] {
  const high = (n >>> 16).toString(16);
  const low = (n & 0xffff).toString(16);
  const client = (~n >>> 0) & 0xffffffff;
  return [
    v4Text(n),
    `::ffff:${v4Text(n)}`,
    `::ffff:${high}:${low}`,
    `::FFFF:${high.toUpperCase()}:${low.toUpperCase()}`,
    `0:0:0:0:0:ffff:${high}:${low}`,
    `0000:0000:0000:0000:0000:ffff:${v4Text(n)}`,
    `::ffff:0:${v4Text(n)}`,
    `::${v4Text(n)}`,
    `64:ff9b::${v4Text(n)}`,
    `64:ff9b::${high}:${low}`,
    `2002:${high}:${low}::1`,
    `2001:0:4136:e378:8000:63bf:${(client >>> 16).toString(16)}:${(client & 0xffff).toString(16)}`,
  ];
}

describe('which addresses are internal', () => {
  it('knows every special-purpose range, v4 and v6, at its first and last address', () => {
    for (const [net, bits, what] of V4) {
      const first = v4Number(net);
      const last = (first + 2 ** (32 - bits) - 1) >>> 0;
      for (const address of [v4Text(first), v4Text(last)]) expect(isInternal(address), `${address} (${what})`).toBe(true);
    }
    for (const [net, bits, what] of V6) {
      const first = v6Number(net);
      const last = first | ((1n << BigInt(128 - bits)) - 1n);
      for (const address of [...v6Forms(first), ...v6Forms(last)]) expect(isInternal(address), `${address} (${what})`).toBe(true);
    }
  });

  it('knows the forms that carry a v4 address, each as that address', () => {
    const table: [string, string[]][] = [
      ['::ffff:7f00:1', ['127.0.0.1']],
      ['::ffff:127.0.0.1', ['127.0.0.1']],
      ['::ffff:0:a9fe:a9fe', ['169.254.169.254']],
      ['::10.0.0.1', ['10.0.0.1']],
      ['64:ff9b::7f00:1', ['127.0.0.1']],
      ['64:ff9b::192.168.1.1', ['192.168.1.1']],
      ['2002:c0a8:101::1', ['192.168.1.1']],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', ['192.0.2.45']],
      ['fe80::1%eth0', []],
      ['2606:4700::1111', []],
      ['127.0.0.1', []],
    ];
    for (const [address, carried] of table) expect(carriedIpv4(address), address).toEqual(carried);
    // The finding: a name resolving to this passed as an allowed host's address.
    expect(isInternal('::ffff:7f00:1')).toBe(true);
    for (const address of ['64:ff9b::8.8.8.8', '::8.8.8.8', '2002:808:808::1', '2001::1', 'fec0::1', '198.19.255.255', 'fe80::1%2', 'not an address'])
      expect(isInternal(address), address).toBe(true);
  });

  it('lets the public internet through', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '140.82.112.3',
      '93.184.216.34',
      '100.128.0.1',
      '198.20.0.1',
      '223.255.255.255',
      '2606:4700::1111',
      '2a00:1450:4001:82a::200e',
      '2001:4860:4860::8888',
    ])
      expect(isInternal(address), address).toBe(false);
  });

  it('holds for any address in an internal range, in any of its forms (property)', () => {
    const v4Inside = fc
      .tuple(fc.constantFrom(...V4), fc.integer({ min: 0, max: 0xffffffff }))
      .map(([[net, bits], host]) => (((v4Number(net) >>> 0) & ~(2 ** (32 - bits) - 1)) | (host & (2 ** (32 - bits) - 1))) >>> 0);
    fc.assert(
      fc.property(v4Inside, fc.nat(), (address, pick) => {
        const forms = v4Forms(address);
        const form = forms[pick % forms.length]!;
        expect(isInternal(form), form).toBe(true);
      }),
      { numRuns: 2000 },
    );
    const v6Inside = fc
      .tuple(fc.constantFrom(...V6), fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }))
      .map(([[net, bits], host]) => v6Number(net) | (host & ((1n << BigInt(128 - bits)) - 1n)));
    fc.assert(
      fc.property(v6Inside, fc.nat(), (address, pick) => {
        const forms = v6Forms(address);
        const form = forms[pick % forms.length]!;
        expect(isInternal(form), form).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('lets through any address outside them: v4, and v6 global unicast (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }).filter((n) => !inV4(n)),
        (address) => {
          expect(isInternal(v4Text(address)), v4Text(address)).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
    const globalUnicast = fc.bigInt({ min: 0n, max: (1n << 125n) - 1n }).map((low) => (1n << 125n) | low); // 2000::/3
    fc.assert(
      fc.property(
        globalUnicast.filter((n) => !inV6(n)),
        (address) => {
          const text = v6Forms(address)[0]!;
          expect(isInternal(text), text).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
