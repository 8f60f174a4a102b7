import { describe, expect, it } from 'vitest';
import { egressTarget, isInternal } from '../../src/sandbox/egress-proxy.ts';
import { parseHostRule } from '../../src/sandbox/host-rules.ts';
import { ProgressState } from '../../src/presentation/progress.ts';
import { plainText } from '../../src/rich/plain.ts';

const rules = (...hosts: string[]) => ({ rules: () => hosts.map((host) => parseHostRule(host, 'test')) });
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe('what the egress proxy lets through', () => {
  it('knows the host’s, the LAN’s and the metadata service’s addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect(isInternal(address), address).toBe(true);
    for (const address of ['1.1.1.1', '140.82.112.3', '2606:4700::1111']) expect(isInternal(address), address).toBe(false);
  });

  it('connects to the address it checked, refusing one inside unless the host or address is named', async () => {
    expect(await egressTarget(rules('github.com'), 'github.com', 443, resolvesTo('140.82.112.3'))).toEqual({ address: '140.82.112.3' });
    expect(await egressTarget(rules('github.com'), 'evil.com', 443, resolvesTo('1.2.3.4'))).toEqual({ refused: 'not on the list' });
    // A wildcard does not name what is inside: a name below it pointing at the metadata service is refused.
    expect(await egressTarget(rules('*.example.com'), 'meta.example.com', 80, resolvesTo('169.254.169.254'))).toEqual({
      refused: 'it resolves to an internal address (169.254.169.254)',
    });
    // Of several addresses, an outside one is taken.
    expect(await egressTarget(rules('*.example.com'), 'a.example.com', 80, resolvesTo('10.0.0.1', '93.184.216.34'))).toEqual({ address: '93.184.216.34' });
    expect(await egressTarget(rules('git.internal'), 'git.internal', 443, resolvesTo('10.0.0.7'))).toEqual({ address: '10.0.0.7' });
    expect(await egressTarget(rules('*.corp', '10.0.0.8'), 'ci.corp', 443, resolvesTo('10.0.0.8'))).toEqual({ address: '10.0.0.8' });
    expect(await egressTarget(rules('github.com:443'), 'github.com', 22, resolvesTo('140.82.112.3'))).toEqual({ refused: 'not on the list' });
    expect(await egressTarget(rules('gone.example'), 'gone.example', 443, () => Promise.reject(new Error('ENOTFOUND')))).toEqual({ refused: 'no such host' });
  });

  it('shows a refused host among the turn’s steps, not counted as one', () => {
    const progress = new ProgressState('Working', 0);
    expect(progress.apply({ type: 'tool_start', id: 't1', name: 'Bash', input: { command: 'curl https://example.com' } })).toBe(true);
    expect(progress.apply({ type: 'blocked', host: 'example.com', why: 'not on the list' })).toBe(true);
    expect(plainText(progress.render(0))).toContain('🚫 blocked example.com');
    expect(progress.stepCount).toBe(1);
  });
});
