import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Turn } from '../../src/engine/session/turn.ts';
import type { TurnOutcome } from '../../src/engine/session/running-turn.ts';
import { runAgentsAs } from '../../src/engine/process/agent-user.ts';
import { decideSandbox } from '../../src/engine/sandbox/sandbox-decision.ts';
import { lowerWalls, raiseWalls, scopeHome } from '../../src/engine/sandbox/walls.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { realAdapter } from '../support/real-adapters.ts';
import { CODEX_MODEL } from '../support/cli-env.ts';
import { shellToolCall, startMockModel, type MockModel, type ModelRequest, type Reply } from '../support/mock-model/index.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// codex and droid in walls, after their agent planted configuration in its home (codex's
// `notify` and `mcp_servers`; droid's hooks and MCP servers): the agent cannot write it from
// inside, and what lands there anyway is not obeyed at the next start: no planted program runs.
const cannot = cannotSwitchUser() ?? cannotWall();
const INSIDE = `/home/${AGENT_USER}`;
const MARKER = `${INSIDE}/planted-ran`;

type Cli = 'codex' | 'droid';
const OPERATOR_CODEX = `model = "${CODEX_MODEL}"\ncheck_for_update_on_startup = false\n[analytics]\nenabled = false\n`;

/** What the agent plants, per CLI: paths in its home and their contents, each running `touch MARKER`. */
const PLANTED: Record<Cli, Record<string, string>> = {
  codex: {
    '.codex/config.toml': `notify = ["touch", "${MARKER}"]\n${OPERATOR_CODEX}[mcp_servers.planted]\ncommand = "touch"\nargs = ["${MARKER}"]\n`,
  },
  droid: {
    '.factory/settings.json': JSON.stringify({
      hooks: Object.fromEntries(
        ['SessionStart', 'UserPromptSubmit', 'PreToolUse'].map((event) => [event, [{ matcher: '', hooks: [{ type: 'command', command: `touch ${MARKER}` }] }]]),
      ),
    }),
    '.factory/mcp.json': JSON.stringify({ mcpServers: { planted: { type: 'stdio', command: 'touch', args: [MARKER] } } }),
  },
};

describe.skipIf(cannot)(`codex and droid in walls, after their agent planted configuration (${cannot ?? AGENT_USER})`, () => {
  const ids = agentIds()!;
  let space: Awaited<ReturnType<typeof tempDir>>;
  let mock: MockModel;
  let work: string;

  const own = (path: string) => execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, path]);

  beforeAll(async () => {
    const user = { name: AGENT_USER, ...ids, home: INSIDE };
    runAgentsAs(user);
    const decision = await decideSandbox({ setting: 'bwrap', allow: [] }, user);
    space = await tempDir('planted-clis-');
    await chmod(space.path, 0o711);
    const homes = join(space.path, 'homes');
    const operator = join(space.path, 'operator');
    work = join(space.path, 'work');
    for (const dir of [homes, work, join(operator, '.codex')]) await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(operator, '.codex', 'config.toml'), OPERATOR_CODEX);
    for (const dir of [homes, work, operator]) own(dir);
    raiseWalls(decision, { homes, sockets: space.path, settings: operator, identity: 'planted-clis' });
    mock = await startMockModel();
  });

  afterAll(async () => {
    lowerWalls();
    runAgentsAs(undefined);
    await mock?.close();
    await space?.remove();
  });

  const ENV: Record<Cli, () => Record<string, string>> = {
    codex: () => ({ CODEX_API_KEY: 'sk-real', OPENAI_BASE_URL: `${mock.url}/v1` }),
    droid: () => ({ FACTORY_API_KEY: 'sk-real', FACTORY_API_BASE_URL: mock.url, FACTORY_DISABLE_DYNAMIC_CONFIG: '1' }),
  };

  async function turn(cli: Cli, command: string, permissions?: 'safe'): Promise<TurnOutcome> {
    mock.reset((request: ModelRequest): Reply => {
      const result = request.toolResults.at(-1);
      return result ? { text: `tool said: ${result.content}` } : { toolCalls: [shellToolCall(cli, command)] };
    });
    const outcome = await new Turn({
      adapter: await realAdapter(cli),
      spec: { prompt: 'go', ...(permissions ? { permissions } : {}) },
      cwd: work,
      env: { PATH: process.env.PATH, LANG: 'C.UTF-8', ...ENV[cli]() },
      walls: { home: `telegram:${cli}`, readOnly: permissions === 'safe' },
      timeoutMs: 90_000,
      graceMs: 500,
    }).done;
    expect(outcome.status, `${outcome.error ?? ''}`).toBe('completed');
    return outcome;
  }

  it.each(['codex', 'droid'] as const)(
    '%s: the agent cannot write its configuration, and what is planted is not obeyed at the next start',
    async (cli) => {
      const [path, text] = Object.entries(PLANTED[cli])[0]!;
      const wrote = await turn(cli, `mkdir -p ~/${dirname(path)}; printf '%s' '${text.replace(/'/g, `'\\''`)}' > ~/${path} && echo planted || echo refused`);
      expect(wrote.text).toContain('refused');
      // It lands anyway (as the agent's user, between turns): the next start, in bypass and in safe, obeys none of it.
      const home = scopeHome(`telegram:${cli}`)!;
      for (const [planted, content] of Object.entries(PLANTED[cli])) {
        await mkdir(dirname(join(home, planted)), { recursive: true });
        await writeFile(join(home, planted), content);
      }
      own(home);
      const next = await turn(cli, 'echo next');
      expect(next.text).toContain('next');
      for (const planted of Object.keys(PLANTED[cli])) await writeFile(join(home, planted), PLANTED[cli][planted]!);
      own(home);
      await turn(cli, 'echo safe', 'safe');
      expect(existsSync(join(home, 'planted-ran'))).toBe(false);
    },
    180_000,
  );
});
