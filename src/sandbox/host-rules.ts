import { ConfigError } from '../errors/config-error.ts';

/** A host a sandboxed CLI may reach: `example.com`, `example.com:8443`, or `*.example.com` (any name below it). */
export interface HostRule {
  host: string;
  /** Below `host`, not `host` itself (`*.example.com`). */
  wildcard: boolean;
  /** Any port when absent. */
  port?: number;
}

const NAME = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** One entry as written (BRIDGE_SANDBOX_ALLOW, `/net allow`); the error says what a good one looks like. */
export function parseHostRule(raw: string, where: string): HostRule {
  const text = raw.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:]+)\](?::(\d+))?$/.exec(text);
  const [host, portText] = bracketed ? [bracketed[1]!, bracketed[2]] : (text.split(/:(?=\d+$)/) as [string, string?]);
  const port = portText === undefined ? undefined : Number(portText);
  const goodHost = bracketed ? true : IPV4.test(host) ? host.split('.').every((n) => Number(n) <= 255) : NAME.test(host);
  if (!goodHost || (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)))
    throw new ConfigError(`${where}: expected a host (example.com), a host and port (example.com:8443) or *.domain, got "${raw.trim()}"`);
  const wildcard = host.startsWith('*.');
  return { host: wildcard ? host.slice(2) : host, wildcard, ...(port !== undefined ? { port } : {}) };
}

export function formatHostRule(rule: HostRule): string {
  const host = rule.host.includes(':') ? `[${rule.host}]` : rule.host;
  return `${rule.wildcard ? '*.' : ''}${host}${rule.port !== undefined ? `:${rule.port}` : ''}`;
}

/** Whether `host:port` (a name or an address, lower case) is one a rule names. */
export function allowedBy(rules: readonly HostRule[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return rules.some((rule) => (rule.port === undefined || rule.port === port) && (rule.wildcard ? name.endsWith(`.${rule.host}`) : name === rule.host));
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
