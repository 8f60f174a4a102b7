import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAdapters } from '../../src/engine/adapters/load.ts';
import { egressTarget, type EgressPolicy, type HostQuestion } from '../../src/engine/sandbox/egress-decision.ts';
import { parseHostRule } from '../../src/engine/sandbox/host-rules.ts';
import { modelApiRules } from '../../src/engine/sandbox/model-hosts.ts';
import { ProgressState } from '../../src/work/presentation/progress.ts';
import { plainText } from '../../src/kernel/rich/plain.ts';

const parse = (hosts: string[]) => hosts.map((host) => parseHostRule(host, 'test'));
/** A policy with these rules, the operator's being `operator` (BRIDGE_SANDBOX_ALLOW, BRIDGE_SANDBOX_INTERNAL, the model API's). */
const rules = (hosts: string[], operator: string[] = [], ask?: EgressPolicy['ask']) => ({
  rules: () => parse([...operator, ...hosts]),
  operator: parse(operator),
  ...(ask ? { ask } : {}),
});
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses;
const never = new AbortController().signal;
/** Where a connection to host:port goes, the name resolving to `addresses`. */
async function target(policy: Parameters<typeof egressTarget>[0], host: string, port: number, ...addresses: string[]) {
  return egressTarget(policy, host, port, never, resolvesTo(...addresses));
}
const INTERNAL = 'which only the operator opens (BRIDGE_SANDBOX_ALLOW, BRIDGE_SANDBOX_INTERNAL)';

describe('what the egress proxy lets through', () => {
  it('connects to the address it checked, refusing an internal one whatever names the host', async () => {
    expect(await target(rules(['github.com']), 'github.com', 443, '140.82.112.3')).toEqual({ address: '140.82.112.3' });
    expect(await target(rules(['github.com']), 'evil.com', 443, '1.2.3.4')).toEqual({ refused: 'not on the list' });
    // A wildcard does not name what is inside: a name below it pointing at the metadata service is refused.
    expect(await target(rules(['*.example.com']), 'meta.example.com', 80, '169.254.169.254')).toEqual({
      refused: `it resolves to an internal address (169.254.169.254), ${INTERNAL}`,
    });
    // Nor does an exact name (/net allow, BRIDGE_SANDBOX_ALLOW), in any form the address comes in.
    for (const address of ['10.0.0.7', '::ffff:7f00:1', '::ffff:127.0.0.1', '64:ff9b::a00:7', '::10.0.0.7', '2002:a00:7::1', 'fec0::1', '198.18.0.1'])
      expect(await target(rules(['git.internal']), 'git.internal', 443, address), address).toEqual({
        refused: `it resolves to an internal address (${address}), ${INTERNAL}`,
      });
    expect(await target(rules(['localhost:8080']), 'localhost', 8080, '::1', '127.0.0.1')).toEqual({
      refused: `it resolves to an internal address (::1), ${INTERNAL}`,
    });
    // Of several addresses, an outside one is taken.
    expect(await target(rules(['*.example.com']), 'a.example.com', 80, '10.0.0.1', '93.184.216.34')).toEqual({ address: '93.184.216.34' });
    expect(await target(rules(['github.com:443']), 'github.com', 22, '140.82.112.3')).toEqual({ refused: 'not on the list' });
    expect(await egressTarget(rules(['gone.example']), 'gone.example', 443, never, () => Promise.reject(new Error('ENOTFOUND')))).toEqual({
      refused: 'no such host',
    });
  });

  it('reaches an internal address only where the operator named it or its range, on its port where one is said', async () => {
    // The operator's address or range opens it for a name a chat allowed.
    expect(await target(rules(['git.internal'], ['10.0.0.7']), 'git.internal', 443, '10.0.0.7')).toEqual({ address: '10.0.0.7' });
    expect(await target(rules(['*.corp'], ['10.0.0.0/8']), 'ci.corp', 443, '10.9.8.7')).toEqual({ address: '10.9.8.7' });
    expect(await target(rules(['localhost:8080'], ['127.0.0.1:8080']), 'localhost', 8080, '::1', '127.0.0.1')).toEqual({ address: '127.0.0.1' });
    // Mapped into v6, it is the same address.
    expect(await target(rules(['git.internal'], ['10.0.0.7']), 'git.internal', 443, '::ffff:a00:7')).toEqual({ address: '::ffff:a00:7' });
    expect(await target(rules(['localhost:8081'], ['127.0.0.1:8080']), 'localhost', 8081, '127.0.0.1')).toEqual({
      refused: `it resolves to an internal address (127.0.0.1), ${INTERNAL}`,
    });
    // A chat's own list naming an address opens nothing internal: only the operator's does.
    expect(await target(rules(['10.0.0.7']), '10.0.0.7', 443)).toEqual({ refused: `an internal address, ${INTERNAL}` });
    expect(await target(rules(['10.0.0.0/8']), '10.0.0.7', 443)).toEqual({ refused: `an internal address, ${INTERNAL}` });
    // An address or range names a host asked for by that address; public ones need no opening.
    expect(await target(rules(['140.82.112.0/20:443']), '140.82.112.3', 443)).toEqual({ address: '140.82.112.3' });
  });

  it('lets the model API’s own host through on its own port alone, a base URL’s address included', async () => {
    const clis = [...(await loadAdapters(fileURLToPath(new URL('../../adapters/', import.meta.url)), {})).values()].map((adapter) => adapter.walls);
    const operator = modelApiRules(clis, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:18999', OPENAI_BASE_URL: 'https://gateway.example/v1' });
    const policy = { rules: () => operator, operator };
    expect(await target(policy, '127.0.0.1', 18999)).toEqual({ address: '127.0.0.1' });
    // The finding: the same address's other ports (the bridge's metrics, Redis, the dashboard) were open.
    for (const port of [18080, 6379, 80]) expect(await target(policy, '127.0.0.1', port)).toEqual({ refused: 'not on the list' });
    expect(await target(policy, 'gateway.example', 443, '203.0.114.1')).toEqual({ address: '203.0.114.1' });
    expect(await target(policy, 'gateway.example', 80, '203.0.114.1')).toEqual({ refused: 'not on the list' });
    expect(await target(policy, 'api.anthropic.com', 443, '160.79.104.10')).toEqual({ address: '160.79.104.10' });
    expect(await target(policy, 'api.anthropic.com', 80, '160.79.104.10')).toEqual({ refused: 'not on the list' });
    // A model API name resolving inside is refused like any other.
    expect(await target(policy, 'api.anthropic.com', 443, '127.0.0.1')).toEqual({ refused: `it resolves to an internal address (127.0.0.1), ${INTERNAL}` });
    // Each CLI's model API and the hosts it calls besides, as its adapter declares them (`walls.modelApi.upstream`, `walls.hosts`).
    for (const host of ['api.openai.com', 'chatgpt.com', 'api.factory.ai', 'app.factory.ai'])
      expect(await target(policy, host, 443, '203.0.114.2'), host).toEqual({ address: '203.0.114.2' });
    const added = modelApiRules(
      [{ modelApi: { upstream: { variable: 'MYCLI_BASE_URL', default: 'https://api.mycli.example' } }, hosts: ['auth.mycli.example'] }],
      {},
    );
    const mine = { rules: () => added, operator: added };
    for (const host of ['api.mycli.example', 'auth.mycli.example'])
      expect(await target(mine, host, 443, '203.0.114.3'), host).toEqual({ address: '203.0.114.3' });
    expect(await target(mine, 'api.anthropic.com', 443, '160.79.104.10')).toEqual({ refused: 'not on the list' });
  });

  it('resolves no name that no rule names and nobody is asked about', async () => {
    const resolved: string[] = [];
    const resolve = async (name: string) => {
      resolved.push(name);
      return ['93.184.216.34'];
    };
    expect(await egressTarget(rules(['github.com']), 'secret-data.attacker.example', 443, never, resolve)).toEqual({ refused: 'not on the list' });
    expect(
      await egressTarget(
        rules([], [], () => undefined),
        'secret-data.attacker.example',
        443,
        never,
        resolve,
      ),
    ).toEqual({ refused: 'not on the list' });
    expect(resolved).toEqual([]);
  });

  it('asks about a host not on the list with the address it resolves to, and an Allow reaches that address alone', async () => {
    const asked: string[] = [];
    const answer =
      (allowed: boolean): EgressPolicy['ask'] =>
      (host, port) => {
        const question: HostQuestion = async (address) => {
          asked.push(`${host}:${port} at ${address}`);
          return allowed ? { allowed: true } : { allowed: false, why: 'denied by Ada' };
        };
        return question;
      };
    expect(await target(rules([], [], answer(true)), 'pkg.example', 443, '93.184.216.34')).toEqual({ address: '93.184.216.34' });
    expect(await target(rules([], [], answer(false)), 'pkg.example', 443, '93.184.216.34')).toEqual({ refused: 'denied by Ada, at 93.184.216.34' });
    // Nobody is asked to open an internal address: no Allow could.
    expect(await target(rules([], [], answer(true)), 'rebind.example', 443, '127.0.0.1')).toEqual({
      refused: `it resolves to an internal address (127.0.0.1), ${INTERNAL}`,
    });
    expect(await target(rules([], [], answer(true)), '169.254.169.254', 80)).toEqual({ refused: `an internal address, ${INTERNAL}` });
    expect(asked).toEqual(['pkg.example:443 at 93.184.216.34', 'pkg.example:443 at 93.184.216.34']);
    // Allowed for the session at one address: there it goes unasked; resolving elsewhere, it is asked about again.
    asked.length = 0;
    const session = rules(['pkg.example:443@93.184.216.34'], [], answer(false));
    expect(await target(session, 'pkg.example', 443, '93.184.216.34')).toEqual({ address: '93.184.216.34' });
    expect(await target(session, 'pkg.example', 443, '198.51.99.7')).toEqual({ refused: 'denied by Ada, at 198.51.99.7' });
    expect(asked).toEqual(['pkg.example:443 at 198.51.99.7']);
    // Where nobody is asked (a run), it is refused.
    expect(await target(rules(['pkg.example:443@93.184.216.34']), 'pkg.example', 443, '198.51.99.7')).toEqual({ refused: 'not on the list at 198.51.99.7' });
  });

  it('shows a refused host among the turn’s steps, not counted as one', () => {
    const progress = new ProgressState('Working', 0);
    expect(progress.apply({ type: 'tool_start', id: 't1', name: 'Bash', input: { command: 'curl https://example.com' } })).toBe(true);
    expect(progress.apply({ type: 'blocked', host: 'example.com', why: 'not on the list' })).toBe(true);
    expect(plainText(progress.render(0))).toContain('🚫 blocked example.com (not on the list: /net allow example.com)');
    expect(progress.stepCount).toBe(1);
  });
});
