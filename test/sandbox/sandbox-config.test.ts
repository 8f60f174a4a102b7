import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxConfig } from '../../src/engine/sandbox/sandbox-config.ts';
import { decideSandbox, ROOT_WITHOUT_AGENT_USER } from '../../src/engine/sandbox/sandbox-decision.ts';
import { allowedBy, formatHostRule, parseHostRule } from '../../src/engine/sandbox/host-rules.ts';
import { bwrapArgv, forwardingScript } from '../../src/engine/sandbox/bwrap-argv.ts';

describe('BRIDGE_SANDBOX', () => {
  it('is auto unless set, and a wrong value names the variable and the choices', () => {
    expect(sandboxConfig({})).toEqual({ setting: 'auto', allow: [], internal: [] });
    expect(sandboxConfig({ BRIDGE_SANDBOX: ' BWRAP ' }).setting).toBe('bwrap');
    expect(() => sandboxConfig({ BRIDGE_SANDBOX: 'docker' })).toThrow(
      'BRIDGE_SANDBOX: expected off, bwrap (every CLI in a bubblewrap sandbox, or no start) or auto (the sandbox where it can run), got "docker"',
    );
  });

  it('BRIDGE_SANDBOX_ALLOW takes hosts, host:port and *.domain, and says what a good entry is', () => {
    const { allow } = sandboxConfig({ BRIDGE_SANDBOX_ALLOW: 'registry.npmjs.org, github.com:443,*.pypi.org,,10.0.0.5:8080' });
    expect(allow.map(formatHostRule)).toEqual(['registry.npmjs.org', 'github.com:443', '*.pypi.org', '10.0.0.5:8080']);
    expect(allowedBy(allow, 'registry.npmjs.org', 443)).toBe(true);
    expect(allowedBy(allow, 'github.com', 80)).toBe(false);
    expect(allowedBy(allow, 'files.pypi.org', 443)).toBe(true);
    expect(allowedBy(allow, 'pypi.org', 443)).toBe(false);
    expect(allowedBy(allow, 'evilpypi.org', 443)).toBe(false);
    expect(() => sandboxConfig({ BRIDGE_SANDBOX_ALLOW: 'https://github.com' })).toThrow(
      'BRIDGE_SANDBOX_ALLOW: expected a host (example.com), a host and port (example.com:8443), *.domain, an address or a range (10.0.0.0/8), got "https://github.com"',
    );
    expect(() => parseHostRule('example.com:99999', 'BRIDGE_SANDBOX_ALLOW')).toThrow(/got "example.com:99999"/);
    for (const bad of ['10.0.0.0/33', '300.1.1.1', 'example.com/8', '::1', '10.0.0.5@1.2.3.4']) expect(() => parseHostRule(bad, 'x'), bad).toThrow(/expected/);
  });

  it('takes addresses and ranges, v4 and v6, and keeps a host bound to an address as it was written', () => {
    const written = ['10.0.0.0/8', '10.0.0.5:5432', '[fd00::5]:8080', '[fd00::]/8:443', 'example.com:443@93.184.216.34', 'example.com:443@[2606:4700::1111]'];
    expect(written.map((host) => formatHostRule(parseHostRule(host, 'x')))).toEqual(written);
    expect(formatHostRule(parseHostRule('fd00::/8', 'x'))).toBe('[fd00::]/8');
    const rules = written.map((host) => parseHostRule(host, 'x'));
    expect(allowedBy(rules, '10.200.1.1', 22)).toBe(true);
    expect(allowedBy(rules, 'fd12::1', 443)).toBe(true);
    expect(allowedBy(rules, 'fd12::1', 80)).toBe(false);
    // A range names addresses asked for, never a name (nothing is resolved to find out).
    expect(allowedBy([parseHostRule('10.0.0.0/8', 'x')], 'git.internal', 443)).toBe(false);
    expect(allowedBy(rules, 'example.com', 443, '93.184.216.34')).toBe(true);
    expect(allowedBy(rules, 'example.com', 443, '93.184.216.35')).toBe(false);
  });

  it('BRIDGE_SANDBOX_INTERNAL takes the internal addresses and ranges a list may open, never a name', () => {
    expect(sandboxConfig({ BRIDGE_SANDBOX_INTERNAL: '10.0.0.0/8, 192.168.1.5:5432' }).internal!.map(formatHostRule)).toEqual([
      '10.0.0.0/8',
      '192.168.1.5:5432',
    ]);
    expect(() => sandboxConfig({ BRIDGE_SANDBOX_INTERNAL: 'git.internal' })).toThrow(
      'BRIDGE_SANDBOX_INTERNAL: expected addresses or ranges (10.0.0.5, 10.0.0.0/8, [fd00::]/8:443), got the name "git.internal"',
    );
  });

  it('off is off; as root with no agent user, auto and bwrap refuse to start, naming BRIDGE_AGENT_USER', async () => {
    expect(await decideSandbox({ setting: 'off', allow: [] }, undefined)).toEqual({ on: false, why: 'BRIDGE_SANDBOX=off' });
    if (process.getuid?.() !== 0) return;
    await expect(decideSandbox({ setting: 'auto', allow: [] }, undefined)).rejects.toThrow(ROOT_WITHOUT_AGENT_USER);
    await expect(decideSandbox({ setting: 'bwrap', allow: [] }, undefined)).rejects.toThrow(
      'BRIDGE_SANDBOX=bwrap: the bridge runs as root and no BRIDGE_AGENT_USER is set',
    );
  });

  it('without bubblewrap on PATH, auto runs without and bwrap refuses, naming what to install', async () => {
    const agent = { uid: 4242, gid: 4242, home: '/home/agent', name: 'agent' };
    const env = { PATH: '/nonexistent' };
    expect(await decideSandbox({ setting: 'auto', allow: [] }, agent, env)).toEqual({
      on: false,
      why: 'BRIDGE_SANDBOX=auto runs CLIs without walls: bwrap (apt-get install bubblewrap) and socat (apt-get install socat) not found on PATH',
      fix: 'Install bubblewrap and socat (apt-get install bubblewrap socat), so each CLI runs in walls.',
    });
    await expect(decideSandbox({ setting: 'bwrap', allow: [] }, agent, env)).rejects.toThrow(
      'BRIDGE_SANDBOX=bwrap: bwrap (apt-get install bubblewrap) and socat (apt-get install socat) not found on PATH',
    );
  });

  it('names only what is missing: socat alone', async () => {
    const agent = { uid: 4242, gid: 4242, home: '/home/agent', name: 'agent' };
    const bin = await mkdtemp(join(tmpdir(), 'only-bwrap-'));
    try {
      await writeFile(join(bin, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
      const decision = await decideSandbox({ setting: 'auto', allow: [] }, agent, { PATH: bin });
      expect(decision).toMatchObject({ on: false, fix: 'Install socat (apt-get install socat), so each CLI runs in walls.' });
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});

describe('the walls as bubblewrap’s command line', () => {
  const plan = {
    system: [{ bind: '/usr' }, { link: '/bin', target: 'usr/bin' }],
    readOnly: ['/opt/cli/node_modules'],
    cwd: '/srv/project',
    writableCwd: true,
    home: { host: '/var/lib/homes/chat-1', inside: '/home/agent' },
    sockets: '/tmp/agents/walls-1',
    forwards: [{ port: 8765, socket: 'mcp.sock' }],
    socat: '/usr/bin/socat',
    command: '/opt/cli/node_modules/cli/bin.js',
    args: ['-p', 'hi'],
  };

  it('binds the system one by one, never /, the project read-write (read-only in safe), and unshares the rest', () => {
    const argv = bwrapArgv(plan);
    const pairs = (flag: string) => argv.flatMap((arg, i) => (arg === flag ? [`${argv[i + 1]} ${argv[i + 2]}`] : []));
    expect(pairs('--ro-bind')).toEqual(['/usr /usr', '/opt/cli/node_modules /opt/cli/node_modules']);
    expect(pairs('--bind')).toEqual(['/var/lib/homes/chat-1 /home/agent', '/srv/project /srv/project', '/tmp/agents/walls-1 /run/jsonl-bridge']);
    expect(argv.join(' ')).not.toMatch(/--(ro-)?bind(-try)? \/ /);
    expect(pairs('--ro-bind-try')).toContain('/etc/passwd /etc/passwd');
    expect(pairs('--ro-bind-try')).not.toContain('/etc/shadow /etc/shadow');
    for (const flag of ['--unshare-pid', '--unshare-ipc', '--unshare-net', '--die-with-parent']) expect(argv).toContain(flag);
    expect(argv.join(' ')).toContain('--cap-drop ALL');
    expect(argv.slice(argv.indexOf('--') + 5)).toEqual(['/opt/cli/node_modules/cli/bin.js', '-p', 'hi']);
    const safe = bwrapArgv({ ...plan, writableCwd: false });
    expect(safe.join(' ')).toContain('--ro-bind /srv/project /srv/project');
  });

  it('forwards each port of the sandbox’s loopback to its socket, and starts the CLI once they listen', () => {
    const script = forwardingScript('/usr/bin/socat', [{ port: 8765, socket: 'mcp.sock' }]);
    expect(script).toContain('/usr/bin/socat TCP-LISTEN:8765,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/jsonl-bridge/mcp.sock');
    expect(script).toContain(':223D 00000000:0000 0A'); // 8765 in /proc/net/tcp
    expect(script.trim().split('\n').at(-1)).toBe('exec "$@"');
  });
});
