import { networkInterfaces } from 'node:os';
import { coveredBy, formatHostRule, parseHostRule, type HostRule } from './host-rules.ts';

const LOOPBACK = ['127.0.0.0/8', '[::1]'].map((range) => parseHostRule(range, 'loopback'));

/**
 * What the walls cannot reach however it is allowed: this machine's loopback. Each sandbox has
 * a network of its own, whose loopback is its own, so `127.0.0.1:5432` or `localhost` there is
 * nothing the machine serves. One line per such entry, naming what to write instead: this
 * machine's address, where the service must listen too.
 */
export function loopbackAllowWarnings(allow: readonly HostRule[]): string[] {
  return allow.filter(isLoopback).map((rule) => {
    const written = formatHostRule(rule);
    const instead = machineAddress();
    const port = rule.port !== undefined ? `:${rule.port}` : '';
    const example = instead ? `${instead}${port}` : `this machine's address${port}`;
    return `BRIDGE_SANDBOX_ALLOW: ${written} is the sandbox's own loopback, not this machine's, so its agents never reach a service there; write this machine's address instead (${example}), and have the service listen on it`;
  });
}

function isLoopback(rule: HostRule): boolean {
  return rule.host === 'localhost' || rule.host.endsWith('.localhost') || coveredBy(LOOPBACK, rule.host, rule.port ?? 0);
}

/** This machine's first address on a network (not its loopback), IPv4 first. */
function machineAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal);
  const chosen = addresses.find((address) => address!.family === 'IPv4') ?? addresses[0];
  return chosen && (chosen.family === 'IPv6' ? `[${chosen.address}]` : chosen.address);
}
