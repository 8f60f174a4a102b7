import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A run's own budget (`/spawn --budget`, an agent's `budget`): the bridge prices each of the
// fake CLI's model calls as it streams (the operator's prices.json gives its model a price:
// $1000 per million output tokens, so a call of 10 output tokens costs $0.01) and stops the run
// through its CLI once it reaches its budget, announcing it once as stopped for cost.
const PRICES = { models: { 'fake-model': { input: 0, output: 1000 } } };
// A long run: a model call every 200 ms, each $0.01.
const LONG = 'tools:40 pace:200 msg-tokens:10 say:never-reached';
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld({}, { dataFiles: { 'prices.json': JSON.stringify(PRICES) } });
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
    expect(await say(chatId, `/spawn --budget 0.05 --label Thrifty ${LONG}`, /^🚀/)).toMatch(/^🚀 #1/);
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

describe('prices.json', () => {
  it('when it is not valid, the bridge does not start, and says which file and field in one line', async () => {
    const data = await tempDir('bridge-prices-');
    try {
      await writeFile(join(data.path, 'prices.json'), JSON.stringify({ models: { 'fake-model': { input: 'cheap', output: 1 } } }));
      const bridge = startBridgeProcess({ TELEGRAM_BOT_TOKEN: '1:not-used', BRIDGE_DATA_DIR: data.path, BRIDGE_WORKDIR: data.path });
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
