import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { FAKE_AGENT } from '../support/fake-cli.ts';
import { freePort } from '../support/free-port.ts';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A run's own budget (`/spawn --budget`, an agent's `budget`): the bridge prices each of the
// fake CLI's model calls as it streams (the operator's prices.json gives its model a price:
// $1000 per million output tokens, so a call of 10 output tokens costs $0.01) and stops the run
// through its CLI once it reaches its budget, announcing it once as stopped for cost.
const PRICES = { models: { 'fake-model': { input: 0, output: 1000 } } };
// A long run: a model call every 200 ms, each $0.01.
const LONG = 'tools:40 pace:200 msg-tokens:10 say:never-reached';
const HOOK_SECRET = 'budget-secret-0123456789abcdef';
const [HOOK_TURN_CHAT, HOOK_RUN_CHAT] = [-7204, -7205];
const HOOKS = {
  hooks: {
    // A turn of the chat's session, and a run, each held to $0.04.
    capped: { chat: String(HOOK_TURN_CHAT), prompt: LONG, signature: 'bearer', secret: HOOK_SECRET, mode: 'bypass', budget: 0.04 },
    cappedRun: {
      chat: String(HOOK_RUN_CHAT),
      prompt: LONG,
      signature: 'bearer',
      secret: HOOK_SECRET,
      spawn: { label: 'Hooked' },
      mode: 'bypass',
      budget: 0.04,
    },
  },
};
let world: TelegramWorld;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  world = await startTelegramWorld(
    // The owner's own day is held to $0.25: the tests before the last spend less than that.
    // codex and droid are the fake CLI too: the real ones, with no credentials, are refused before their price is.
    { BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, BRIDGE_PERSON_DAILY_BUDGET_USD: '0.25', BRIDGE_CODEX_COMMAND: FAKE_AGENT, BRIDGE_DROID_COMMAND: FAKE_AGENT },
    { dataFiles: { 'prices.json': JSON.stringify(PRICES), 'hooks.json': JSON.stringify(HOOKS) } },
  );
  await world.bridge.waitForLog(/webhooks: /);
});
afterAll(() => world?.stop());

const messagesIn = (chatId: number) => world.telegram.botMessages(chatId).map(shownText);

async function say(chatId: number, text: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const asked = world.telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada' });
  const reply = await world.telegram.waitFor(
    () => world.telegram.botMessages(chatId).find((m) => m.messageId > asked.message_id && pattern.test(shownText(m))),
    timeoutMs,
  );
  return shownText(reply);
}

describe("a run's budget", () => {
  it('stops the run mid-way through its CLI once its cost reaches it, announced once as stopped for cost with what it did and cost', async () => {
    const chatId = -7201;
    expect(await say(chatId, `/spawn --budget 0.05 --label Thrifty ${LONG}`, /^🚀/)).toMatch(
      /^🚀 #1 started: Thrifty [^]*\n💸 Budget \$0\.05: stopped for cost once reached\.\n/,
    );
    const announced = await say(chatId, '/subagents', /^❌ #1 Thrifty/, 30_000);
    expect(announced).toMatch(/Stopped for cost: it had cost \$0\.0[5-7], reaching its budget of \$0\.05/);
    expect(announced).toMatch(/claude · [5-7] tool calls · .*\$0\.0[5-7]/);
    expect(announced).not.toContain('never-reached');
    // Exactly once, however long one waits: a later round trip finds no second one.
    await say(chatId, '/usage', /^💰 Usage of this chat/);
    expect(messagesIn(chatId).filter((text) => /^❌ #1 Thrifty/.test(text))).toHaveLength(1);
    // The ledger has what it cost, priced by the bridge.
    expect(await say(chatId, '/usage', /^💰 Usage of this chat/)).toMatch(/Today \(\S+ UTC\): \$0\.0[5-7] · 1 run/);
  });

  it("holds an agent's budget the same way", async () => {
    const chatId = -7202;
    await mkdir(join(world.dataDir, 'agents', 'frugal'), { recursive: true });
    await writeFile(
      join(world.dataDir, 'agents', 'frugal', 'agent.json'),
      JSON.stringify({ description: 'Spends little', prompt: 'Be brief.', budget: '$0.03' }),
    );
    expect(await say(chatId, `/spawn --agent frugal ${LONG}`, /^(🚀|⚠️)/)).toMatch(/^🚀 #1/);
    const announced = await say(chatId, '/subagents', /^❌ #1 /, 30_000);
    expect(announced).toMatch(/Stopped for cost: it had cost \$0\.0[3-5], reaching its budget of \$0\.03/);
  });

  it('is refused at spawn, with a sentence, where neither the CLI nor the price table gives a price', async () => {
    const chatId = -7203;
    expect(await say(chatId, '/spawn --cli droid --budget 0.50 do it', /^⚠️/)).toMatch(
      /^⚠️ A budget cannot be held here: droid reports neither a cost nor the tokens it uses, so the bridge cannot tell when a budget is reached: run it without --budget, or on a CLI that reports them \(claude, codex\)\.\n/,
    );
    expect(await say(chatId, '/spawn --cli codex --model mystery-1 --budget 0.50 do it', /^⚠️/)).toMatch(
      /^⚠️ A budget cannot be held here: The model "mystery-1" has no price in the price table, and codex reports no cost of its own/,
    );
    expect(await say(chatId, '/spawn --budget lots do it', /^⚠️/)).toMatch(/^⚠️ --budget takes an amount of US dollars above 0/);
  });
});

describe("a webhook's budget", () => {
  const deliver = (name: string) =>
    fetch(`${base}/hooks/${name}`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${HOOK_SECRET}` } });

  it("stops the hook's turn through the CLI once reached, says so once, and the session goes on", async () => {
    await say(HOOK_TURN_CHAT, '/hooks', /^🪝/);
    expect((await deliver('capped')).status).toBe(202);
    const notice = await world.telegram.waitFor(() => messagesIn(HOOK_TURN_CHAT).find((text) => text.startsWith('💸 Stopped for cost')), 30_000);
    expect(notice).toMatch(
      /^💸 Stopped for cost: this turn had cost \$0\.0[4-6], reaching its budget of \$0\.04\. What it did so far is above; the session goes on with the next message\.$/,
    );
    // Its answer never came: only the hook's own message (which shows the prompt) names it.
    expect(messagesIn(HOOK_TURN_CHAT).filter((text) => text.includes('never-reached'))).toEqual([expect.stringMatching(/^🪝 Webhook capped: /)]);
    expect(await say(HOOK_TURN_CHAT, 'say:still-here', /still-here/)).toContain('still-here');
    expect(messagesIn(HOOK_TURN_CHAT).filter((text) => text.startsWith('💸 Stopped for cost'))).toHaveLength(1);
  });

  it("stops the hook's run once reached, announced as stopped for cost", async () => {
    await say(HOOK_RUN_CHAT, '/hooks', /^🪝/);
    expect((await deliver('cappedRun')).status).toBe(202);
    const announced = await world.telegram.waitFor(() => messagesIn(HOOK_RUN_CHAT).find((text) => /^❌ #1 Hooked/.test(text)), 30_000);
    expect(announced).toMatch(/Stopped for cost: it had cost \$0\.0[4-6], reaching its budget of \$0\.04/);
  });
});

describe("a run's budget beyond its person's day", () => {
  it('is allowed, but the day binds: the run stops at what the day had left, and then their new work is refused', async () => {
    const chatId = -7206;
    const started = await say(chatId, `/spawn --budget 5 --label Generous ${LONG}`, /^(🚀|⚠️)/);
    const left =
      /💸 Budget \$(0\.\d\d), what is left of the daily budget of the person who started it \(\$5\.00 was asked\): stopped for cost once reached\./.exec(
        started,
      );
    expect(left, started).not.toBeNull();
    const announced = await say(chatId, '/subagents', /^❌ #1 Generous/, 30_000);
    expect(announced).toContain(`reaching what its person had left of their daily budget, $${left![1]} (it asked for $5.00)`);
    // Refused either way: the run's stop may land before the day's last cent, on it, or (its CLI
    // working on until the interrupt reaches it, as on a loaded machine) a cent past it.
    expect(await say(chatId, 'say:more', /^💸/)).toMatch(
      /^💸 (Ada, you have spent \$0\.2\d today across chats, your daily budget of \$0\.25|Ada has reached their daily budget across chats: \$0\.2[5-9] of \$0\.25 today)/,
    );
  });
});

describe('prices.json', () => {
  it('when it is not valid, the bridge does not start, and says which file and field in one line', async () => {
    const data = await tempDir('bridge-prices-');
    try {
      await writeFile(join(data.path, 'prices.json'), JSON.stringify({ models: { 'fake-model': { input: 'cheap', output: 1 } } }));
      const bridge = startBridgeProcess({ TELEGRAM_BOT_TOKEN: '1:not-used-00000000000000000000000000', BRIDGE_DATA_DIR: data.path, BRIDGE_WORKDIR: data.path });
      expect((await bridge.exited).code).toBe(78);
      const lines = bridge.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^jsonl-bridge: \S+prices\.json: field "models\.fake-model\.input": expected number, received string\. Prices are US dollars per million tokens/,
      );
    } finally {
      await data.remove();
    }
  });
});
