import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../../kernel/errors/config-error.ts';

/**
 * A host a sandboxed CLI may reach: `example.com`, `example.com:8443`, `*.example.com` (any name
 * below it), an address (`10.0.0.5`, `[fd00::5]:8080`) or a range of them (`10.0.0.0/8`,
 * `[fd00::]/8:443`).
 */
export interface HostRule {
  /** A name, or an address (a range's first). */
  host: string;
  /** Below `host`, not `host` itself (`*.example.com`). */
  wildcard: boolean;
  /** Any port when absent. */
  port?: number;
  /** `host` is the first address of a range of this many leading bits (`10.0.0.0/8`). */
  prefix?: number;
  /** Only where the name resolves to this address (Allow for this session): `example.com:443@93.184.216.34`. */
  address?: string;
}

const NAME = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** `host`, `[v6]` or a bare v6 range, then `/bits`, `:port` and `@address`, each where it may be. */
const RULE = /^(?:\[([0-9a-f:.]+)\]|([^:/[\]@]+)|([0-9a-f:.]+(?=\/)))(?:\/(\d{1,3}))?(?::(\d{1,5}))?(?:@\[?([0-9a-f:.]+)\]?)?$/;

/** One entry as written (BRIDGE_SANDBOX_ALLOW, `/net allow`); the error says what a good one looks like. */
export function parseHostRule(raw: string, where: string): HostRule {
  const text = raw.trim().toLowerCase();
  const [, bracketed, plain, bareRange, prefixText, portText, bound] = RULE.exec(text) ?? [];
  const host = (bracketed ?? plain ?? bareRange ?? '').replace(/\.$/, '');
  const family = isIP(host);
  const port = portText === undefined ? undefined : Number(portText);
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  const good =
    (bracketed !== undefined || bareRange !== undefined ? family === 6 : family === 4 || (NAME.test(host) && !/^[\d.]+$/.test(host))) &&
    (port === undefined || (port >= 1 && port <= 65535)) &&
    (prefix === undefined || (family !== 0 && prefix <= (family === 4 ? 32 : 128))) &&
    (bound === undefined || (family === 0 && isIP(bound) !== 0));
  if (!good)
    throw new ConfigError(
      `${where}: expected a host (example.com), a host and port (example.com:8443), *.domain, an address or a range (10.0.0.0/8), got "${raw.trim()}"`,
    );
  const wildcard = host.startsWith('*.');
  return {
    host: wildcard ? host.slice(2) : host,
    wildcard,
    port,
    prefix,
    address: bound,
  };
}

export function formatHostRule(rule: HostRule): string {
  const bracket = (address: string) => (address.includes(':') ? `[${address}]` : address);
  return [
    rule.wildcard ? '*.' : '',
    bracket(rule.host),
    rule.prefix !== undefined ? `/${rule.prefix}` : '',
    rule.port !== undefined ? `:${rule.port}` : '',
    rule.address !== undefined ? `@${bracket(rule.address)}` : '',
  ].join('');
}

/**
 * Whether a rule names `host:port` as the CLI asked for it (a name, or an address): a name by
 * its name, an address by an address or range rule. A rule bound to an address names it only
 * where it resolved to that `address`.
 */
export function allowedBy(rules: readonly HostRule[], host: string, port: number, address?: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return rules.some(
    (rule) =>
      onPort(rule, port) &&
      (isIP(rule.host) ? isIP(name) !== 0 && covers(rule, name) : rule.wildcard ? name.endsWith(`.${rule.host}`) : name === rule.host) &&
      (rule.address === undefined || (address !== undefined && covers({ host: rule.address }, address))),
  );
}

/** Whether an address or range among `rules` covers `address` on `port` (its v4 address, for one mapped into v6). */
export function coveredBy(rules: readonly HostRule[], address: string, port: number): boolean {
  return rules.some((rule) => isIP(rule.host) !== 0 && onPort(rule, port) && covers(rule, address));
}

function onPort(rule: HostRule, port: number): boolean {
  return rule.port === undefined || rule.port === port;
}

function covers(range: { host: string; prefix?: number }, address: string): boolean {
  const type = (text: string) => (isIP(text) === 4 ? 'ipv4' : 'ipv6');
  const family = isIP(address);
  if (!family) return false;
  const list = new BlockList();
  list.addSubnet(range.host, range.prefix ?? (type(range.host) === 'ipv4' ? 32 : 128), type(range.host));
  return list.check(address, type(address));
}

/** Hosts as written (a chat's /net list, a run's copy of it) as rules; one that no longer reads (written by another version) is left out, not fatal. */
export function writtenHostRules(hosts: readonly string[] | undefined): HostRule[] {
  return (hosts ?? []).flatMap((host) => {
    try {
      return [parseHostRule(host, '/net allow')];
    } catch {
      return [];
    }
  });
}
