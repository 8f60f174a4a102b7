import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, chown, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAdapters } from '../../src/engine/adapters/load.ts';
import { seedHome } from '../../src/engine/sandbox/home-seed.ts';
import type { CliInWalls } from '../../src/engine/sandbox/wall-scope.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent } from '../support/agent-user.ts';

const cannot = cannotSwitchUser();

describe.skipIf(cannot)(`a sandbox's home, given its uid's logins (${cannot ?? 'as ' + AGENT_USER})`, () => {
  let space: Awaited<ReturnType<typeof tempDir>>;
  let source: string;
  let home: string;
  const ids = agentIds()!;
  // What each shipped adapter declares of its login (`walls.login`, `walls.givenOnce`).
  let claude: CliInWalls;
  let codex: CliInWalls;
  const seedBoth = () => [...seedHome(source, home, ids, claude), ...seedHome(source, home, ids, codex)];

  beforeAll(async () => {
    const adapters = await loadAdapters(fileURLToPath(new URL('../../adapters/', import.meta.url)), {});
    claude = adapters.get('claude')!.walls;
    codex = adapters.get('codex')!.walls;
  });

  const put = async (path: string, text: string, at?: number) => {
    const file = join(source, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    if (at) await utimes(file, at / 1000, at / 1000);
  };

  beforeEach(async () => {
    space = await tempDir('home-seed-');
    await chmod(space.path, 0o711);
    source = join(space.path, 'agent');
    home = join(space.path, 'homes', 'chat-1');
    await put('.claude/settings.json', '{"model":"opus"}');
    await put('.claude/agents/reviewer.md', '# reviewer');
    await put('.claude/.credentials.json', '{"claudeAiOauth":{}}');
    await put('.claude/projects/-work/other-chat.jsonl', 'a conversation');
    await put('.claude.json', '{"hasCompletedOnboarding":true}');
    await put('.codex/auth.json', '{"tokens":{}}');
    await put('.codex/sessions/2026/rollout.jsonl', 'a conversation');
    await put('.gitconfig', '[user]\n\tname = Agent\n');
    await put('.ssh/id_ed25519', 'a private key');
    await giveToAgent(source, ids);
    await mkdir(home, { recursive: true, mode: 0o700 });
    await giveToAgent(join(space.path, 'homes'), ids);
    await giveToAgent(home, ids);
  });

  afterEach(() => space.remove());

  it('gets its CLI’s login, owned by its uid, and none of its settings, sessions or other secrets (settings are bound read-only at each start)', () => {
    expect(seedHome(source, home, ids, claude).sort()).toEqual(['.claude.json', '.claude/.credentials.json'].sort());
    // Another CLI's login reaches the home only when that CLI runs there.
    expect(existsSync(join(home, '.codex/auth.json'))).toBe(false);
    expect(seedHome(source, home, ids, codex)).toEqual(['.codex/auth.json']);
    expect(readFileSync(join(home, '.claude/.credentials.json'), 'utf8')).toBe('{"claudeAiOauth":{}}');
    expect(statSync(join(home, '.claude/.credentials.json')).uid).toBe(ids.uid);
    expect(statSync(join(home, '.claude')).uid).toBe(ids.uid);
    expect(existsSync(join(home, '.claude/settings.json'))).toBe(false);
    expect(existsSync(join(home, '.claude/agents'))).toBe(false);
    expect(existsSync(join(home, '.gitconfig'))).toBe(false);
    expect(existsSync(join(home, '.claude/projects'))).toBe(false);
    expect(existsSync(join(home, '.codex/sessions'))).toBe(false);
    expect(existsSync(join(home, '.ssh'))).toBe(false);
  });

  it('takes a login renewed outside at the next start, keeps one the CLI renewed inside, and gives its state file once', async () => {
    seedBoth();
    expect(seedBoth()).toEqual([]);
    const later = Date.now() + 60_000;
    await put('.claude/.credentials.json', '{"claudeAiOauth":{"renewed":"outside"}}', later);
    await put('.claude.json', '{"hasCompletedOnboarding":false}', later);
    // The CLI renewed its login inside: newer than the operator's.
    await writeFile(join(home, '.codex/auth.json'), '{"tokens":{"renewed":true}}');
    await utimes(join(home, '.codex/auth.json'), later / 1000 + 60, later / 1000 + 60);
    await put('.codex/auth.json', '{"tokens":{}}', later);
    await giveToAgent(source, ids);
    expect(seedBoth()).toEqual(['.claude/.credentials.json']);
    expect(readFileSync(join(home, '.claude/.credentials.json'), 'utf8')).toContain('outside');
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toBe('{"hasCompletedOnboarding":true}');
    expect(readFileSync(join(home, '.codex/auth.json'), 'utf8')).toContain('renewed');
  });

  it('never reads for its uid what that uid may not: a link planted to a root-only file is refused, naming it', async () => {
    const secret = join(space.path, 'root-only');
    await writeFile(secret, 'root’s secret', { mode: 0o600 });
    await rm(join(source, '.codex/auth.json'));
    await symlink(secret, join(source, '.codex/auth.json'));
    await chown(join(source, '.codex'), ids.uid, ids.gid);
    expect(() => seedHome(source, home, ids, codex)).toThrow(/~\/\.codex\/auth\.json \(cp: .*Permission denied\)/);
    expect(existsSync(join(home, '.codex/auth.json'))).toBe(false);
  });
});
