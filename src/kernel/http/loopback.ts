import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4'); // IPv4-mapped IPv6 (::ffff:127.0.0.1) is matched against it too
loopback.addAddress('::1', 'ipv6');

/**
 * 127.0.0.0/8, ::1 (however IPv6 writes it, bracketed or not) and localhost: a host the bridge
 * listens on, or a connection's peer. Anything else (0.0.0.0, ::, another name, an interface's
 * address, none) is beyond.
 */
export function isLoopback(host: string | undefined): boolean {
  if (!host) return false;
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && loopback.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}
