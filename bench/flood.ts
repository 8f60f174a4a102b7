import { startBenchBot } from './bot.ts';
import type { BenchResult } from './report.ts';

const PRIVATE_CHATS = 40;
const GROUPS = 10;
/** How long every chat's turn runs, a tool call a second: long enough for a group to need three minutes' budget. */
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 120);

/**
 * 50 chats at once (10 of them groups), each with a turn that shows progress for two minutes,
 * against a Bot API that enforces Telegram's per-chat limits (1 call a second in a private
 * chat, 20 a minute in a group): no 429 may come back, no answer may be lost, and the
 * progress edits must be coalesced into what the limits allow.
 */
export async function benchFlood(dir: string): Promise<BenchResult[]> {
  const users = Array.from({ length: PRIVATE_CHATS }, (_, i) => 2001 + i);
  const bot = await startBenchBot(dir, { floodLimits: true, env: { BRIDGE_ALLOWED_USERS: users.join(',') } });
  const { telegram, app } = bot;
  const chats = [
    ...users.map((user) => ({ chatId: user, userId: user })),
    ...Array.from({ length: GROUPS }, (_, i) => ({ chatId: -3001 - i, userId: users[i]! })),
  ];
  const prompt = `tools:${SECONDS} pace:1000`;
  try {
    const started = Date.now();
    for (const { chatId, userId } of chats) telegram.sendText({ chatId, userId, text: prompt, ...(chatId < 0 ? { chatType: 'group' as const } : {}) });
    const answered = (chatId: number) => telegram.botMessages(chatId).some((m) => (m.text ?? '').startsWith('echo:'));
    await telegram.waitFor(() => chats.every(({ chatId }) => answered(chatId)), (SECONDS + 240) * 1000);
    await app.bot.idle();
    const wallS = (Date.now() - started) / 1000;
    const floods = telegram.calls.filter((call) => call.status === 429 && !call.injected).length;
    const lost = chats.filter(({ chatId }) => !answered(chatId)).length;
    const edits = telegram.callsTo('editMessageText').length;
    const groupEdits = telegram.callsTo('editMessageText').filter((call) => Number(call.params.chat_id) < 0).length / GROUPS;
    return [
      { suite: 'flood', name: `429s received, ${chats.length} chats (${GROUPS} groups) with ${SECONDS} s of progress each`, value: floods, unit: 'errors' },
      { suite: 'flood', name: 'answers lost', value: lost, unit: 'answers', note: `all answered in ${Math.round(wallS)} s` },
      {
        suite: 'flood',
        name: `progress edits for ${(chats.length * SECONDS).toLocaleString('en-US')} tool events`,
        value: edits,
        unit: 'edits',
        note: `${Math.round(groupEdits)} per group turn (its budget: 20 a minute), ${Math.round((edits - groupEdits * GROUPS) / PRIVATE_CHATS)} per private one`,
      },
    ];
  } finally {
    await bot.stop();
  }
}
