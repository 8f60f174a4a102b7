import { parse } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { handoffCommand } from '../../src/engine/adapters/handoff.ts';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdapters } from '../../src/engine/adapters/load.ts';

const SHIPPED = fileURLToPath(new URL('../../adapters/', import.meta.url));

describe('the terminal command that continues a session', () => {
  it('is what each shipped CLI takes to resume interactively, in the directory, quoted for any path', async () => {
    const adapters = await loadAdapters(SHIPPED, {});
    const dir = "/srv/it's here";
    // Found on no PATH: the command's name as the adapter gives it.
    const run = (cli: string) => parse(handoffCommand(adapters.get(cli)!, 'abc-123', dir, { searchPath: '/nowhere' })!);
    expect(run('claude')).toEqual(['cd', dir, { op: '&&' }, adapters.get('claude')!.resolvedCommand, '--resume', 'abc-123']);
    expect(run('codex')).toEqual(['cd', dir, { op: '&&' }, adapters.get('codex')!.resolvedCommand, 'resume', 'abc-123']);
    expect(run('droid')).toEqual(['cd', dir, { op: '&&' }, adapters.get('droid')!.resolvedCommand, '--resume', 'abc-123']);
  });

  it('runs as the agent user where agents run as one: their credentials and sessions are theirs', async () => {
    const claude = (await loadAdapters(SHIPPED, {})).get('claude')!;
    const [sudo, user, name, home, sh, c, inner] = parse(handoffCommand(claude, 'abc-123', '/work/a b', { agentUser: 'jsonl-agent', searchPath: '/nowhere' })!);
    expect([sudo, user, name, home, sh, c]).toEqual(['sudo', '-u', 'jsonl-agent', '-H', 'sh', '-c']);
    expect(parse(inner as string)).toEqual(['cd', '/work/a b', { op: '&&' }, claude.resolvedCommand, '--resume', 'abc-123']);
  });

  it('names the CLI by the path the bridge finds it at, which a plain shell runs (its PATH may not have the CLI)', async () => {
    const claude = (await loadAdapters(SHIPPED, {})).get('claude')!;
    const bin = await mkdtemp(join(tmpdir(), 'handoff-bin-'));
    await writeFile(join(bin, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
    try {
      expect(parse(handoffCommand(claude, 'abc-123', '/w', { searchPath: `/nowhere:${bin}` })!)).toEqual([
        'cd',
        '/w',
        { op: '&&' },
        join(bin, 'claude'),
        '--resume',
        'abc-123',
      ]);
    } finally {
      await rm(bin, { recursive: true });
    }
  });

  it('runs with the chat’s own home where its CLI runs in walls: its sessions are kept there', async () => {
    const claude = (await loadAdapters(SHIPPED, {})).get('claude')!;
    const home = '/home/jsonl-agent/.jsonl-bridge/homes/telegram_42-1a2b3c4d';
    const [, , , , , , inner] = parse(handoffCommand(claude, 'abc-123', '/w', { agentUser: 'jsonl-agent', home, searchPath: '/nowhere' })!);
    expect(parse(inner as string)).toEqual(['cd', '/w', { op: '&&' }, `HOME=${home}`, claude.resolvedCommand, '--resume', 'abc-123']);
  });

  it('is none for a CLI that cannot be handed a session', () => {
    expect(handoffCommand({ resolvedCommand: 'x' }, 'abc', '/w')).toBeUndefined();
  });
});
