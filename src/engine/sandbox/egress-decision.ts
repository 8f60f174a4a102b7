import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { allowedBy, coveredBy, type HostRule } from './host-rules.ts';
import { isInternal } from './internal-addresses.ts';

/*
 * Where one connection of a sandbox may go. A host is let through when a rule names it, at an
 * address it resolves to; an internal address (internal-addresses.ts) only where the operator
 * named that address or its range, whatever names the host. The address checked is the one
 * connected to: nothing is resolved twice. A host no rule names is never resolved unless a
 * person is to be asked about it, so an agent's made-up names reach no resolver.
 */

/** What a person said of a host not on the list: let the connection through, or refuse it (why, for the refusal). */
export type HostVerdict = { allowed: true } | { allowed: false; why: string };

/** A question about a host not on the list, put once the address it resolves to is known; `gone` aborts when its connection closes meanwhile. */
export type HostQuestion = (address: string, gone: AbortSignal) => Promise<HostVerdict>;

/** Why a host no rule names is refused. */
export const NOT_LISTED = 'not on the list';
/** Why a host whose name does not resolve is refused: this machine's network or DNS, which no list opens. */
export const NO_SUCH_HOST = 'no such host';

export interface EgressPolicy {
  /** The rules as they are now (a chat's /net list changes while its CLI runs). */
  rules(): readonly HostRule[];
  /** The operator's own (BRIDGE_SANDBOX_ALLOW, BRIDGE_SANDBOX_INTERNAL, the model API's base URL): an address or range in them opens an internal one. */
  operator: readonly HostRule[];
  /** A connection refused, with why: said once per host by the caller. */
  onBlocked(host: string, why: string): void;
  /** Where a person decides (a chat in `ask`): the question about a host no rule names. Absent, or undefined from it: refused at once. */
  ask?(host: string, port: number): HostQuestion | undefined;
}

export type EgressTarget = { address: string } | { refused: string };

export type Resolve = (name: string) => Promise<string[]>;

const resolveAll: Resolve = async (name) => (await lookup(name, { all: true })).map((a) => a.address);

/** Where `host:port` may be reached: the address to connect to, or why not (a person asked first, where the policy asks). */
export async function egressTarget(
  policy: Pick<EgressPolicy, 'rules' | 'operator' | 'ask'>,
  host: string,
  port: number,
  gone: AbortSignal,
  resolve: Resolve = resolveAll,
): Promise<EgressTarget> {
  const name = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const rules = policy.rules();
  const question = () => policy.ask?.(name, port);
  // A rule bound to an address still names the host: where it resolves elsewhere, a person is asked again.
  if (!allowedBy(rules.map(unbound), name, port) && !question()) return { refused: NOT_LISTED };
  const addresses = isIP(name) ? [name] : await resolve(name).catch((): string[] => []);
  if (!addresses.length) return { refused: NO_SUCH_HOST };
  const reachable = addresses.filter((address) => !isInternal(address) || coveredBy(policy.operator, address, port));
  if (!reachable.length) return { refused: internal(name, addresses[0]!) };
  const allowed = reachable.find((address) => allowedBy(rules, name, port, address));
  if (allowed) return { address: allowed };
  const address = reachable[0]!;
  const ask = question();
  if (!ask) return { refused: `${NOT_LISTED} at ${address}` };
  const verdict = await ask(address, gone);
  return verdict.allowed ? { address } : { refused: `${verdict.why}, at ${address}` };
}

function unbound({ address: _bound, ...rule }: HostRule): HostRule {
  return rule;
}

function internal(name: string, address: string): string {
  const which = isIP(name) ? 'an internal address' : `it resolves to an internal address (${address})`;
  return `${which}, which only the operator opens (BRIDGE_SANDBOX_ALLOW, BRIDGE_SANDBOX_INTERNAL)`;
}
