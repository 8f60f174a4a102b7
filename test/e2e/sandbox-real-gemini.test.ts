import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PLACEHOLDER_KEY } from '../../src/engine/sandbox/model-api-access.ts';
import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { startMockModel, type MockModel, type ModelRequest, type Reply } from '../support/mock-model/index.ts';
import { ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// The real Gemini CLI over ACP in its walls: pointed at the credential proxy by
// GOOGLE_GEMINI_BASE_URL, it answers the mock model holding a placeholder key (the real one is
// added by the proxy), and its shell tool writes in the chat's directory and cannot read the key.
const cannot = cannotSwitchUser() ?? cannotWall();
const CHAT = -4240;
const REAL_KEY = 'gemini-real-secret-of-the-operator';

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

/** Gemini CLI's own JSON calls (its model router, its next-speaker check) ask for JSON: one answer fits both. */
const wantsJson = (request: ModelRequest) => JSON.stringify(request.rawBody.generationConfig ?? {}).includes('application/json');

function script(request: ModelRequest): Reply {
  if (wantsJson(request) || !request.lastUserText.includes('walled.txt'))
    return { text: '{"reasoning": "simple", "model_choice": "flash", "next_speaker": "user"}' };
  const result = request.toolResults.at(-1);
  if (result) return { text: `tool said: ${result.content}` };
  return { toolCalls: [{ name: 'run_shell_command', input: { command: 'echo "key=$GEMINI_API_KEY"; echo made > walled.txt && echo wrote' } }] };
}

const { say, waitText } = ownerIn(() => world!, CHAT, 90_000);

describe.skipIf(cannot)(`the real Gemini CLI in its walls (${cannot ?? AGENT_USER})`, () => {
  it('answers through the credential proxy with a placeholder key, and its tool cannot read the real one', async () => {
    project = await sharedRepo(agentIds()!.gid);
    mock = await startMockModel({ script });
    cliEnv = await prepareCliEnv('gemini', mock.url);
    world = await startTelegramWorld({
      ...cliEnv.env,
      BRIDGE_DEFAULT_CLI: 'gemini',
      BRIDGE_GEMINI_COMMAND: CLI_BINARIES.gemini,
      BRIDGE_WORKDIR: project.path,
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      BRIDGE_PERMISSION_MODE: 'bypass',
      GEMINI_API_KEY: REAL_KEY,
    });
    say('write walled.txt');
    const reply = await waitText(/^tool said/);
    expect(reply.text).toContain(`key=${PLACEHOLDER_KEY}`);
    expect(reply.text).not.toContain(REAL_KEY);
    expect(reply.text).toContain('wrote');
    expect(existsSync(join(project.path, 'walled.txt'))).toBe(true);
    const calls = mock.requests.filter((request) => request.url.startsWith('/v1beta/models/'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map((request) => request.headers['x-goog-api-key']))).toEqual(new Set([REAL_KEY]));
  }, 150_000);
});
