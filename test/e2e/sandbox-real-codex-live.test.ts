import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PLACEHOLDER_KEY } from '../../src/engine/sandbox/model-api-access.ts';
import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { shellToolCall, startMockModel, type MockModel, type ModelRequest, type Reply } from '../support/mock-model/index.ts';
import { ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// A chat's live session of the real codex (its app server) in walls: pointed at the credential
// proxy by its arguments, its own sandbox left off by the thread it opens, it answers the mock
// model holding a placeholder, and its tool writes in the chat's directory.
const cannot = cannotSwitchUser() ?? cannotWall();
const CHAT = -4230;
const REAL_KEY = 'sk-real-secret-of-the-operator';

let world: TelegramWorld | undefined;
let mock: MockModel | undefined;
let cliEnv: CliEnv | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
afterEach(async () => {
  await world?.stop();
  await mock?.close();
  await cliEnv?.cleanup();
  await project?.remove();
  world = mock = cliEnv = project = undefined;
});

function script(request: ModelRequest): Reply {
  const result = request.toolResults.at(-1);
  if (result) return { text: `tool said: ${result.content}` };
  return { toolCalls: [shellToolCall('codex', 'echo "key=$CODEX_API_KEY"; grep "^Seccomp:" /proc/self/status; echo made > live.txt && echo wrote')] };
}

const { say, waitText } = ownerIn(() => world!, CHAT, 60_000);

describe.skipIf(cannot)(`a live session of the real codex in its walls (${cannot ?? AGENT_USER})`, () => {
  it('answers through the credential proxy with a placeholder key, its tools under no sandbox of its own', async () => {
    project = await sharedRepo(agentIds()!.gid);
    mock = await startMockModel({ script });
    cliEnv = await prepareCliEnv('codex', mock.url);
    world = await startTelegramWorld({
      ...cliEnv.env,
      BRIDGE_DEFAULT_CLI: 'codex',
      BRIDGE_CODEX_COMMAND: CLI_BINARIES.codex,
      BRIDGE_WORKDIR: project.path,
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      CODEX_API_KEY: REAL_KEY,
      OPENAI_BASE_URL: `${mock.url}/v1`,
    });
    say('write live.txt');
    const reply = await waitText(/^tool said/);
    expect(reply.text).toContain(`key=${PLACEHOLDER_KEY}`);
    expect(reply.text).toMatch(/Seccomp:\s+0/);
    expect(reply.text).toContain('wrote');
    expect(existsSync(join(project.path, 'live.txt'))).toBe(true);
    const calls = mock.requests.filter((request) => request.url.startsWith('/v1/responses'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map((request) => request.headers.authorization))).toEqual(new Set([`Bearer ${REAL_KEY}`]));
  }, 120_000);
});
