import { emittedAt } from './fake-cli-results.ts';
import { watch } from 'node:fs';
import { startBenchBot } from './bot.ts';
import type { BenchResult } from './report.ts';

const OWNER = 7;

/**
 * The whole bot in this process (grammY over real HTTP to the fake Bot API, the fake CLI
 * as a real process): Bot API calls per turn as the CLI gets chattier, and the time from
 * the CLI printing its result line to the answer reaching the Bot API; and how often a chatty
 * turn rewrites the chat store (chats.json), per tool call.
 */
export async function benchTelegram(dir: string): Promise<BenchResult[]> {
  const bot = await startBenchBot(dir, { env: { BRIDGE_ALLOWED_USERS: String(OWNER) } });
  const { telegram, cli, app } = bot;
  const results: BenchResult[] = [];
  let chat = -1;
  const storeWrites = countWrites(dir, 'chats.json');
  try {
    for (const [tools, pace] of [
      [0, 0],
      [20, 50],
      [200, 15],
      [2000, 0],
    ] as const) {
      const chatId = chat--;
      const before = telegram.calls.length;
      const writesBefore = storeWrites.count();
      telegram.sendText({ chatId, userId: OWNER, text: `tools:${tools} pace:${pace}`, chatType: 'group' });
      await telegram.waitFor(() => telegram.botMessages(chatId).some((m) => m.text?.startsWith('echo:')), 120_000);
      await app.bot.idle();
      const calls = telegram.calls.slice(before).filter((c) => c.params.chat_id === chatId);
      const edits = calls.filter((c) => c.method === 'editMessageText').length;
      const seconds = ((tools * pace) / 1000).toFixed(1);
      results.push({
        suite: 'telegram',
        name: `Bot API calls, turn with ${tools} tool calls over ${seconds} s`,
        value: calls.length,
        unit: 'calls',
        note: `${edits} edits`,
      });
      if (tools >= 200) {
        const writes = storeWrites.count() - writesBefore;
        results.push({
          suite: 'telegram',
          name: `chat store writes per tool call, turn with ${tools} tool calls over ${seconds} s`,
          value: Math.round((writes / tools) * 1000) / 1000,
          unit: 'writes',
          note: `${writes} writes of chats.json for the whole turn`,
        });
      }
    }
    const latencies: number[] = [];
    for (let i = 0; i < 100; i++) {
      const chatId = chat--;
      telegram.sendText({ chatId, userId: OWNER, text: `turn ${i}`, chatType: 'group' });
      await telegram.waitForCall('sendMessage', (c) => c.params.chat_id === chatId, 30_000); // the progress message, first
      // The answer of a quick turn is the edit that puts it in place of the progress message.
      const answer = await telegram.waitForCall('editMessageText', (c) => c.params.chat_id === chatId && String(c.params.text).startsWith('echo:'), 30_000);
      const emitted = await emittedAt(cli.env.FAKE_CLI_LOG!, `turn ${i}`);
      latencies.push(answer.time - emitted);
    }
    latencies.sort((a, b) => a - b);
    const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((latencies.length * p) / 100) - 1)]!;
    results.push({ suite: 'telegram', name: 'result line → answer at the Bot API, p50', value: percentile(50), unit: 'ms', note: `${latencies.length} turns` });
    results.push({ suite: 'telegram', name: 'result line → answer at the Bot API, p99', value: percentile(99), unit: 'ms' });
  } finally {
    storeWrites.close();
    await bot.stop();
  }
  return results;
}

/**
 * Writes of `file` in `dir`, as the file system sees them: each is a temporary file renamed
 * onto it (lowdb's atomic write), one rename event naming the file.
 */
function countWrites(dir: string, file: string): { count(): number; close(): void } {
  let writes = 0;
  const watcher = watch(dir, (event, name) => {
    if (event === 'rename' && name === file) writes++;
  });
  return { count: () => writes, close: () => watcher.close() };
}
