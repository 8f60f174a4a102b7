import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentsAs } from '../../src/engine/process/agent-user.ts';
import { decideSandbox, type SandboxDecision } from '../../src/engine/sandbox/sandbox-decision.ts';
import { enclose, lowerWalls, raiseWalls, scopeHome, terminalHome } from '../../src/engine/sandbox/walls.ts';
import type { Adapter } from '../../src/engine/adapters/load.ts';
import { realAdapter } from '../support/real-adapters.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { cannotWall } from './walls-support.ts';

// What a CLI obeys is the operator's: whatever the agent wrote in its home's configuration, the
// next process in walls sees the operator's, read-only, and cannot change it; a terminal's home
// for /handoff is laid from the operator's too. Homes are named for the bridge as well as the chat.
const cannot = cannotSwitchUser() ?? cannotWall();

describe.skipIf(cannot)(`the configuration in a sandbox's home (${cannot ?? 'bubblewrap as ' + AGENT_USER})`, () => {
  const ids = agentIds()!;
  let space: Awaited<ReturnType<typeof tempDir>>;
  let decision: SandboxDecision;
  let homes: string;
  let operator: string;
  let work: string;
  let claude: Adapter;
  let codex: Adapter;

  /** The agent user's, all of it (what it wrote, or what its operator gave it). */
  const giveToAgent = (path: string, _ids: unknown) => execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, path]);

  const put = async (root: string, path: string, text: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };

  /** What the agent leaves in its home while in bypass: allow rules, hooks, agents, MCP servers, shell and git code. */
  async function plant(home: string): Promise<void> {
    await put(home, '.claude/settings.json', JSON.stringify({ permissions: { allow: ['Bash'] }, hooks: { SessionStart: [] } }));
    await put(home, '.claude/settings.local.json', '{"permissions":{"allow":["Bash"]}}');
    await put(home, '.claude/agents/evil.md', '# evil');
    await put(
      home,
      '.claude.json',
      JSON.stringify({ numStartups: 7, mcpServers: { evil: { command: 'touch' } }, projects: { [work]: { allowedTools: ['Bash'] } } }),
    );
    await put(home, '.bashrc', 'touch /tmp/planted');
    await put(home, '.gitconfig', '[core]\n\tfsmonitor = touch /tmp/planted\n');
    await put(home, '.codex/config.toml', 'notify = ["touch", "/tmp/planted"]\n');
    await put(home, '.claude/projects/-work/session.jsonl', 'a conversation');
    giveToAgent(home, ids);
  }

  /** Runs `script` in walls for `scope`, as claude's would be, and returns what it printed. */
  function inWalls(scope: string, script: string, cli = claude): string {
    const enclosure = enclose({ command: '/bin/sh', args: ['-c', script], cwd: work, env: { PATH: '/usr/bin:/bin' } }, { home: scope, cli: cli.walls });
    try {
      return execFileSync(enclosure.command, enclosure.args, { uid: enclosure.uid, gid: enclosure.gid, env: enclosure.env }).toString();
    } finally {
      enclosure.close();
    }
  }

  beforeAll(async () => {
    runAgentsAs({ name: AGENT_USER, ...ids, home: `/home/${AGENT_USER}` });
    decision = await decideSandbox({ setting: 'bwrap', allow: [] }, { name: AGENT_USER, ...ids, home: `/home/${AGENT_USER}` });
    space = await tempDir('operator-config-');
    await chmod(space.path, 0o711);
    homes = join(space.path, 'homes');
    operator = join(space.path, 'operator');
    work = join(space.path, 'work');
    await mkdir(homes, { mode: 0o700 });
    await mkdir(work, { mode: 0o700 });
    await put(operator, '.claude/settings.json', '{"model":"opus"}');
    await put(operator, '.claude/agents/reviewer.md', '# reviewer');
    await put(operator, '.claude.json', JSON.stringify({ hasCompletedOnboarding: true }));
    await put(operator, '.gitconfig', '[user]\n\tname = Operator\n');
    for (const path of [homes, work, operator]) giveToAgent(path, ids);
    claude = await realAdapter('claude');
    codex = await realAdapter('codex');
  });

  afterAll(async () => {
    lowerWalls();
    runAgentsAs(undefined);
    await space?.remove();
  });

  it('shows the operator’s configuration read-only, blanks where the operator has none, and keeps the agent from replacing either', async () => {
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'bridge-a' });
    const home = scopeHome('telegram:1')!;
    await mkdir(home, { mode: 0o700 });
    giveToAgent(home, ids);
    await plant(home);
    const seen = inWalls(
      'telegram:1',
      [
        'cd ~',
        'echo "settings=$(cat .claude/settings.json)"',
        'echo "local=$(cat .claude/settings.local.json)"',
        'echo "agents=$(ls .claude/agents | tr "\\n" " ")"',
        'echo "bashrc=$(cat .bashrc)"',
        'echo "gitconfig=$(cat .gitconfig | tr "\\n\\t" "  ")"',
        '{ echo x > .claude/settings.json; } 2>/dev/null && echo write=ok || echo write=refused',
        'rm -f .claude/settings.json 2>/dev/null && echo remove=ok || echo remove=refused',
        'mv .claude .claude-away 2>/dev/null && echo rename=ok || echo rename=refused',
        'mv .config .config-away 2>/dev/null && echo rename-config=ok || echo rename-config=refused',
        '{ echo "{}" > .claude/hooks/new.sh; } 2>/dev/null && echo hook=ok || echo hook=refused',
        'echo "session" > .claude/projects/-work/new.jsonl && echo session=ok',
      ].join('\n'),
    );
    expect(seen).toContain('settings={"model":"opus"}');
    expect(seen).toContain('local={}');
    expect(seen).toContain('agents=reviewer.md');
    expect(seen).toContain('bashrc=\n');
    expect(seen).toContain('gitconfig=[user]  name = Operator');
    // Each CLI's start lays its own: codex's settings are the operator's when codex starts.
    expect(inWalls('telegram:1', 'cat ~/.codex/config.toml; echo end', codex)).toBe('end\n');
    for (const refused of ['write', 'remove', 'rename', 'rename-config', 'hook']) expect(seen).toContain(`${refused}=refused`);
    expect(seen).toContain('session=ok');
    // What the agent left is gone from the home; its sessions stay; Claude Code's state keeps its own fields, the operator's MCP servers and projects.
    expect(readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe('');
    expect(existsSync(join(home, '.claude/agents/evil.md'))).toBe(false);
    expect(readFileSync(join(home, '.claude/projects/-work/session.jsonl'), 'utf8')).toBe('a conversation');
    const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as Record<string, unknown>;
    expect(state).toEqual({ numStartups: 7 });
  });

  it('lays a terminal’s home from the operator’s configuration, the chat’s sessions linked in', async () => {
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'bridge-a' });
    const home = scopeHome('telegram:1')!;
    await plant(home);
    const terminal = terminalHome('telegram:1', claude.walls, true)!;
    expect(readFileSync(join(terminal, '.claude/settings.json'), 'utf8')).toBe('{"model":"opus"}');
    expect(readFileSync(join(terminal, '.claude/settings.local.json'), 'utf8')).toBe('{}');
    expect(readFileSync(join(terminal, '.bashrc'), 'utf8')).toBe('');
    expect(readFileSync(join(terminal, '.gitconfig'), 'utf8')).toContain('Operator');
    expect(existsSync(join(terminal, '.claude/agents/evil.md'))).toBe(false);
    expect(JSON.parse(readFileSync(join(terminal, '.claude.json'), 'utf8'))).toEqual({ numStartups: 7 });
    expect(lstatSync(join(terminal, '.claude/projects')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(terminal, '.claude/projects'))).toBe(join(home, '.claude/projects'));
    expect(lstatSync(terminal).uid).toBe(ids.uid);
  });

  it('names homes for the bridge as well as the chat, and hands a home named for the chat alone to the first bridge that wants it', async () => {
    raiseWalls(decision, { homes, sockets: space.path, settings: operator });
    const before = scopeHome('telegram:2')!;
    await mkdir(join(before, '.claude'), { recursive: true });
    await writeFile(join(before, '.claude/kept.txt'), 'from before');
    giveToAgent(before, ids);
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'bridge-a' });
    const mine = scopeHome('telegram:2')!;
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'bridge-b' });
    const theirs = scopeHome('telegram:2')!;
    expect(new Set([before, mine, theirs]).size).toBe(3);
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'bridge-a' });
    expect(inWalls('telegram:2', 'cat ~/.claude/kept.txt')).toBe('from before');
    expect(existsSync(before)).toBe(false);
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'bridge-b' });
    expect(inWalls('telegram:2', 'cat ~/.claude/kept.txt 2>/dev/null || echo none')).toBe('none\n');
  });
});
