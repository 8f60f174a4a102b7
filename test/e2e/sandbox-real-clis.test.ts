import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Turn } from '../../src/engine/session/turn.ts';
import type { TurnOutcome } from '../../src/engine/session/running-turn.ts';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { runAgentsAs } from '../../src/engine/process/agent-user.ts';
import { decideSandbox } from '../../src/engine/sandbox/sandbox-decision.ts';
import { lowerWalls, raiseWalls } from '../../src/engine/sandbox/walls.ts';
import { PLACEHOLDER_KEY } from '../../src/engine/sandbox/model-api-access.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { realAdapter } from '../support/real-adapters.ts';
import { CODEX_MODEL } from '../support/cli-env.ts';
import { shellToolCall, startMockModel, type MockModel, type ModelRequest, type Reply } from '../support/mock-model/index.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// The real CLIs in their walls (BRIDGE_SANDBOX as the agent user): each answers the mock model
// through the bridge's credential proxy, which adds the real key (or claude's OAuth token) the
// CLI never held; their own sandboxes stay off, so a tool runs under ours alone (which makes
// `safe` read-only).
const cannot = cannotSwitchUser() ?? cannotWall();

const REAL_KEY = 'sk-real-secret-of-the-operator';

type Cli = 'claude' | 'codex' | 'droid';
/** The credential each CLI is given here. */
const KEY_VARIABLE: Record<Cli, string> = { claude: 'CLAUDE_CODE_OAUTH_TOKEN', codex: 'CODEX_API_KEY', droid: 'FACTORY_API_KEY' };

describe.skipIf(cannot)(`the real CLIs in their walls (${cannot ?? AGENT_USER})`, () => {
  let space: Awaited<ReturnType<typeof tempDir>>;
  let mock: MockModel;
  let work: string;
  let uid = 0;
  let gid = 0;
  let operator = '';

  /** The turn's first request runs a command that shows the key it holds and writes `file`; the tool's output is the answer. */
  function script(cli: Cli, file: string) {
    return (request: ModelRequest): Reply => {
      const result = request.toolResults.at(-1);
      if (result) return { text: `tool said: ${result.content}` };
      const command = [
        // Claude Code gives its tools no credential of its own: what it holds is in its environment, the tool's parent's.
        cli === 'claude' ? `echo "key=$(grep -z ^${KEY_VARIABLE[cli]}= /proc/$PPID/environ | tr -d '\\0' | cut -d= -f2)"` : `echo "key=$${KEY_VARIABLE[cli]}"`,
        // A sandbox of the CLI's own filters its tools' system calls, the network's among them.
        'grep "^Seccomp:" /proc/self/status',
        'curl -s -o /dev/null -w "egress=%{http_code}\\n" http://example.com/',
        `echo made > ${file} && echo wrote`,
      ].join('; ');
      return { toolCalls: [shellToolCall(cli, command)] };
    };
  }

  beforeAll(async () => {
    ({ uid, gid } = agentIds()!);
    const user = { name: AGENT_USER, uid, gid, home: `/home/${AGENT_USER}` };
    runAgentsAs(user);
    const decision = await decideSandbox({ setting: 'bwrap', allow: [] }, user);
    space = await tempDir('walled-clis-');
    await chmod(space.path, 0o711);
    const homes = join(space.path, 'homes');
    await mkdir(homes, { mode: 0o700 });
    await chown(homes, uid, gid);
    // The operator's own settings are in a home of this test's, not the agent user's shared one.
    operator = join(space.path, 'operator');
    await mkdir(operator, { mode: 0o700 });
    await chown(operator, uid, gid);
    raiseWalls(decision, { homes, sockets: space.path, settings: operator });
    work = join(space.path, 'work');
    await mkdir(work, { mode: 0o700 });
    await chown(work, uid, gid);
    await mkdir(join(space.path, 'operator-codex-home'));
    mock = await startMockModel();
  });

  afterAll(async () => {
    lowerWalls();
    runAgentsAs(undefined);
    await mock?.close();
    await space?.remove();
  });

  /** The operator's codex settings, which a chat's walls show: a known model, no update check, no analytics. */
  async function codexHome(): Promise<void> {
    const codex = join(operator, '.codex');
    await mkdir(codex, { recursive: true });
    await writeFile(join(codex, 'config.toml'), `model = "${CODEX_MODEL}"\ncheck_for_update_on_startup = false\n[analytics]\nenabled = false\n`);
    for (const path of [codex, join(codex, 'config.toml')]) await chown(path, uid, gid);
  }

  /** The operator's Claude Code settings, which a chat's walls show: its own sandbox on. */
  async function claudeHome(): Promise<void> {
    const claude = join(operator, '.claude');
    await mkdir(claude, { recursive: true });
    await writeFile(join(claude, 'settings.json'), '{"sandbox":{"enabled":true}}');
    for (const path of [claude, join(claude, 'settings.json')]) await chown(path, uid, gid);
  }

  async function turn(cli: Cli, file: string, env: Record<string, string>, permissions?: 'safe'): Promise<TurnOutcome> {
    mock.reset(script(cli, file));
    const scope = `telegram:${cli}`;
    if (cli === 'codex') await codexHome();
    if (cli === 'claude') await claudeHome();
    const events: AgentEvent[] = [];
    const outcome = await new Turn(
      {
        adapter: await realAdapter(cli),
        spec: { prompt: `write ${file}`, ...(permissions ? { permissions } : {}) },
        cwd: work,
        env: { PATH: process.env.PATH, LANG: 'C.UTF-8', ...env },
        walls: { home: scope, readOnly: permissions === 'safe' },
        timeoutMs: 90_000,
        graceMs: 500,
      },
      { onEvent: (event) => events.push(event) },
    ).done;
    expect(outcome.status, `${outcome.error ?? ''}`).toBe('completed');
    // Nothing the CLI calls its model API for is refused (the credential proxy's refusals name the call: `host GET /path`).
    expect(events.filter((event) => event.type === 'blocked' && event.host.includes(' ')).map((event) => JSON.stringify(event))).toEqual([]);
    // Each model call the mock answered was metered by the credential proxy, and is what the turn used.
    const metered = events.filter((event) => event.type === 'usage' && event.proxy);
    expect(metered).toHaveLength(mock.modelRequests.length);
    expect(outcome.metered?.usage.inputTokens).toBe(12 * mock.modelRequests.length);
    expect(outcome.result?.usage).toEqual(outcome.metered?.usage);
    return outcome;
  }

  // The operator's CODEX_HOME is a folder of the host, not inside: codex keeps its settings and sessions in the chat's home.
  const codexEnv = () => ({ CODEX_API_KEY: REAL_KEY, OPENAI_BASE_URL: `${mock.url}/v1`, CODEX_HOME: join(space.path, 'operator-codex-home') });

  it('codex answers through the credential proxy holding a placeholder, over HTTP with the real key and no delay, each call metered', async () => {
    const outcome = await turn('codex', 'made-by-codex.txt', codexEnv());
    expect(outcome.text).toContain(`key=${PLACEHOLDER_KEY}`);
    expect(outcome.text).not.toContain(REAL_KEY);
    expect(outcome.text).toContain('wrote');
    // In bypass, its own sandbox off: no filter of its own on the tool, which reaches our egress
    // proxy (whose 403 refuses a host nobody allowed), and writes in its directory.
    expect(outcome.text).toMatch(/Seccomp:\s+0/);
    expect(outcome.text).toContain('egress=403');
    expect(existsSync(join(work, 'made-by-codex.txt'))).toBe(true);
    // The API saw the real key on every call, each over HTTP: the WebSocket codex tries first the
    // credential proxy answers itself (426, as an API without them does), since it could not meter its frames.
    expect(mock.requests.map((request) => `${request.method} ${request.url} ${request.headers.upgrade ?? 'http'}`)).toEqual([
      'POST /v1/responses http',
      'POST /v1/responses http',
    ]);
    expect(new Set(mock.requests.map((request) => request.headers.authorization))).toEqual(new Set([`Bearer ${REAL_KEY}`]));
    // codex understood the 426 and went on over HTTP at once: a refusal it did not understand
    // costs it five retries with backoff, over 5 s.
    expect(outcome.durationMs).toBeLessThan(5_000);
  }, 120_000);

  it('codex in safe cannot write its directory (ours makes it read-only), and no sandbox of its own filters its tools', async () => {
    const outcome = await turn('codex', 'safe-by-codex.txt', codexEnv(), 'safe');
    expect(outcome.text).toMatch(/Read-only file system/);
    expect(outcome.text).toMatch(/Seccomp:\s+0/);
    expect(outcome.text).toContain('egress=403');
    expect(outcome.text).not.toMatch(/bwrap|namespace|landlock/i);
    expect(existsSync(join(work, 'safe-by-codex.txt'))).toBe(false);
  }, 120_000);

  it('droid answers through the credential proxy holding a placeholder, every call to Factory’s API with the real key', async () => {
    const outcome = await turn('droid', 'made-by-droid.txt', {
      FACTORY_API_KEY: REAL_KEY,
      FACTORY_API_BASE_URL: mock.url,
      FACTORY_DISABLE_DYNAMIC_CONFIG: '1',
    });
    expect(outcome.text).toContain(`key=${PLACEHOLDER_KEY}`);
    expect(outcome.text).not.toContain(REAL_KEY);
    expect(existsSync(join(work, 'made-by-droid.txt')), outcome.text).toBe(true);
    expect(mock.modelRequests.length).toBeGreaterThanOrEqual(2);
    const calls = mock.requests.filter((request) => request.url.startsWith('/api/'));
    expect(calls.length).toBeGreaterThan(2);
    expect(new Set(calls.map((request) => request.headers.authorization))).toEqual(new Set([`Bearer ${REAL_KEY}`]));
  }, 120_000);

  it('claude holds a placeholder for its OAuth token, which the API gets with the oauth beta claude sends, and runs its tools under no sandbox of its own though its settings turn one on', async () => {
    const outcome = await turn('claude', 'made-by-claude.txt', {
      CLAUDE_CODE_OAUTH_TOKEN: REAL_KEY,
      ANTHROPIC_BASE_URL: mock.url,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
    });
    expect(outcome.text).toContain(`key=${PLACEHOLDER_KEY}`);
    expect(outcome.text).not.toContain(REAL_KEY);
    // Its own sandbox would run the tool under a filter of its own, cut off from our egress proxy.
    expect(outcome.text).toMatch(/Seccomp:\s+0/);
    expect(outcome.text).toContain('egress=403');
    expect(existsSync(join(work, 'made-by-claude.txt'))).toBe(true);
    const calls = mock.requests.filter((request) => request.url.startsWith('/v1/messages'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Bearer ${REAL_KEY}`);
      expect(call.headers['anthropic-beta']).toContain('oauth-2025-04-20');
    }
  }, 120_000);
});
