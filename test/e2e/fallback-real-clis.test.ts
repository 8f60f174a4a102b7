import { clockTime } from '../../src/engine/fallback/limit-words.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { claudeUsageLimit, openAiInsufficientQuota, startMockModel, type MockModel, type ModelRequest } from '../support/mock-model/index.ts';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The real claude, with a Claude subscription (an OAuth token, as a subscriber's), hits its
// usage limit: the mock model answers it with Anthropic's real 429 and reset headers. The
// real codex, against the same mock, takes the turn over, briefed by the bridge, and answers
// it once. Then the other way round: the real codex (its live app server) on a key with no
// quota left (OpenAI's 429 insufficient_quota), and the real claude taking over.
let mock: MockModel;
let claude: CliEnv;
let codex: CliEnv;
let world: TelegramWorld;
const CHAT = OWNER;
const resetsAt = new Date(Date.now() + 3 * 3600_000);
// As the chat reads it: the time, with the date where the reset falls on another day than now.
const resetsWhen = clockTime(resetsAt.getTime());

/** What the model was asked, as one text. */
const asked = (request: ModelRequest) => JSON.stringify(request.messages);

beforeAll(async () => {
  mock = await startMockModel({
    script: (request) =>
      request.api === 'anthropic'
        ? { error: claudeUsageLimit(resetsAt) }
        : { text: asked(request).includes('taking over a session from claude') ? 'codex, briefed: the tests pass' : 'codex, not briefed' },
  });
  claude = await prepareCliEnv('claude', mock.url);
  codex = await prepareCliEnv('codex', mock.url);
  const { ANTHROPIC_API_KEY: _key, ...claudeEnv } = claude.env;
  world = await startTelegramWorld({
    ...claudeEnv,
    // A subscriber's claude: its usage limit is the subscription's, which says when it resets.
    CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-mock',
    CODEX_HOME: codex.env.CODEX_HOME!,
    MOCK_API_KEY: codex.env.MOCK_API_KEY!,
    BRIDGE_DEFAULT_CLI: 'claude',
    BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
    BRIDGE_CODEX_COMMAND: CLI_BINARIES.codex,
    BRIDGE_WORKDIR: claude.workdir,
    BRIDGE_FALLBACK: 'claude>codex',
  });
}, 120_000);
afterAll(async () => {
  await world?.stop();
  await mock?.close();
  await Promise.all([claude?.cleanup(), codex?.cleanup()]);
});

describe('the real claude out of quota', () => {
  it('has its turn answered once by the real codex, briefed, with one line saying who took over and why', async () => {
    world.telegram.sendText({ chatId: CHAT, userId: OWNER, text: 'make the tests pass', chatType: 'private', firstName: 'Ada' });
    const shown = () => world.telegram.botMessages(CHAT).map(shownText);
    await world.telegram.waitFor(() => shown().find((text) => /^codex, /.test(text)), 60_000);
    expect(shown()).toContain(`↪️ codex took over from claude: claude's usage limit is reached (resets ${resetsWhen})`);
    expect(shown().filter((text) => /^codex, /.test(text))).toEqual(['codex, briefed: the tests pass']);
    expect(shown().filter((text) => /^❌ (?!\w+ · )/.test(text))).toEqual([]);
    // claude asked once and was refused; codex was given the brief and the message.
    const requests = mock.modelRequests;
    expect(requests.filter((request) => request.api === 'anthropic').length).toBeGreaterThanOrEqual(1);
    const toCodex = requests.filter((request) => request.api === 'openai');
    expect(toCodex).toHaveLength(1);
    expect(asked(toCodex[0]!)).toContain("because claude's usage limit is reached");
    expect(asked(toCodex[0]!)).toContain('make the tests pass');
  });
});

describe('the real codex on a key with no quota', () => {
  it('has its turn answered once by the real claude, briefed, with one line saying so', async () => {
    const chat = -7001;
    mock.reset((request) =>
      request.api === 'openai'
        ? { error: openAiInsufficientQuota }
        : { text: asked(request).includes('taking over a session from codex') ? 'claude, briefed: done' : 'claude, not briefed' },
    );
    const say = (text: string) => world.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
    const shown = () => world.telegram.botMessages(chat).map(shownText);
    say('/cli codex');
    await world.telegram.waitFor(() => shown().find((text) => /codex/.test(text)), 30_000);
    say('/fallback codex>claude');
    await world.telegram.waitFor(() => shown().find((text) => /^↪️ Fallback: codex>claude/.test(text)), 30_000);
    say('review the diff');
    await world.telegram.waitFor(() => shown().find((text) => /^claude, /.test(text)), 90_000);
    expect(shown()).toContain("↪️ claude took over from codex: codex's API key has no credit left");
    expect(shown().filter((text) => /^claude, /.test(text))).toEqual(['claude, briefed: done']);
    expect(shown().filter((text) => /^❌ (?!\w+ · )/.test(text))).toEqual([]);
    const toClaude = mock.modelRequests.filter((request) => request.api === 'anthropic' && asked(request).includes('review the diff'));
    expect(toClaude.length).toBeGreaterThanOrEqual(1);
  });
});
