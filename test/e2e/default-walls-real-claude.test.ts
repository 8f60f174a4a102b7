import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { MOCK_API_KEY, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { startMockModel, type MockModel, type ModelRequest, type Reply } from '../support/mock-model/index.ts';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// The first ten minutes on a Linux desktop: someone who is not root, with bubblewrap
// installed, runs `npm start` with the defaults (BRIDGE_SANDBOX=auto, the CLI named `claude`
// and found, as npm start finds it, in node_modules/.bin). The walls go up, and the first
// message is answered by the real claude inside them, which holds no model key.
const REPO_BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

let mock: MockModel | undefined;
let cliEnv: CliEnv | undefined;
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  await mock?.close();
  await cliEnv?.cleanup();
  world = mock = cliEnv = undefined;
});

function script(request: ModelRequest): Reply {
  const result = request.toolResults.at(-1);
  if (result) return { text: `inside: ${result.content}` };
  return { toolCalls: [{ name: 'Bash', input: { command: 'echo "user=$(id -un) key=${ANTHROPIC_API_KEY:-none}"', description: 'who' } }] };
}

const { say, waitText: said } = ownerIn(() => world!, OWNER, 90_000);
const cannot = cannotSwitchUser() ?? cannotWall();

describe.skipIf(cannot)(`the defaults, as a person who is not root (${cannot ?? AGENT_USER})`, () => {
  it('npm start with BRIDGE_SANDBOX=auto and the bare `claude` of node_modules/.bin answers the first message from inside the walls', async () => {
    const ids = agentIds()!;
    mock = await startMockModel({ script });
    cliEnv = await prepareCliEnv('claude', mock.url);
    execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dirname(cliEnv.home)]);
    world = await startTelegramWorld(
      {
        ...cliEnv.env,
        // What `npm start` puts first on PATH.
        PATH: `${REPO_BIN}:${cliEnv.env.PATH}`,
        BRIDGE_CLAUDE_COMMAND: 'claude',
        BRIDGE_SANDBOX: 'auto',
        BRIDGE_WORKDIR: cliEnv.workdir,
      },
      { runAs: ids },
    );
    await world.bridge.waitForLog(/sandbox: every CLI runs in a bubblewrap sandbox/);
    say('who are you?');
    const answer = await said(/^inside:/);
    expect(shownText(answer)).toContain(`user=${AGENT_USER}`);
    expect(shownText(answer)).not.toContain(MOCK_API_KEY);
    expect(world.telegram.botMessages(OWNER).map(shownText).join('\n')).not.toMatch(/not found|exited with code 127/);
  });
});
