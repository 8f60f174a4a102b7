import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { startMockModel, type MockModel } from '../support/mock-model/index.ts';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// /usage counts every turn and run, whatever its CLI and however it ended: the real claude's
// and the real codex's turns refused by their model API, and a codex run refused the same way.
let mock: MockModel;
let claude: CliEnv;
let codex: CliEnv;
let world: TelegramWorld;

beforeAll(async () => {
  mock = await startMockModel({
    script: (request) => ({ error: request.api === 'anthropic' ? { status: 401, message: 'invalid x-api-key' } : { status: 400, message: 'bad request' } }),
  });
  claude = await prepareCliEnv('claude', mock.url);
  codex = await prepareCliEnv('codex', mock.url);
  world = await startTelegramWorld({
    ...claude.env,
    CODEX_HOME: codex.env.CODEX_HOME!,
    MOCK_API_KEY: codex.env.MOCK_API_KEY!,
    BRIDGE_DEFAULT_CLI: 'claude',
    BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
    BRIDGE_CODEX_COMMAND: CLI_BINARIES.codex,
    BRIDGE_WORKDIR: claude.workdir,
  });
}, 120_000);
afterAll(async () => {
  await world?.stop();
  await mock?.close();
  await Promise.all([claude?.cleanup(), codex?.cleanup()]);
});

const { say, waitText } = ownerIn(() => world, OWNER, 90_000);
const failures = () => world.telegram.botMessages(OWNER).filter((message) => /^❌ (?!\w+ · )/.test(shownText(message))).length;

describe('/usage with the real claude and codex', () => {
  it('counts the failed claude turn, the failed codex turn and the failed codex run', { timeout: 300_000 }, async () => {
    say('first, to claude');
    await world.telegram.waitFor(() => failures() >= 1 || undefined, 90_000);
    say('/cli codex');
    await waitText(/Switched to codex/);
    say('then, to codex');
    await world.telegram.waitFor(() => failures() >= 2 || undefined, 90_000);
    say('/spawn --label Refused "a run, to codex"');
    await waitText(/^❌ #1 Refused/);
    say('/usage');
    const usage = shownText(await waitText(/^💰 Usage of this chat/));
    expect(usage).toMatch(/Today \(\S+ UTC\): \$\S+ · 2 turns, 1 run · /);
    expect(usage).toMatch(/\n {2}claude: \$\S+ · 1 turn · /);
    expect(usage).toMatch(/\n {2}codex: \$\S+ · 1 turn, 1 run · /);
  });
});
