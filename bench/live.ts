import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI_BINARIES, prepareCliEnv } from '../test/support/cli-env.ts';
import { FAKE_AGENT } from '../test/support/fake-cli.ts';
import type { FakeMessage, FakeTelegram } from '../test/support/fake-telegram/index.ts';
import { shellToolCall, startMockModel, type MockModel } from '../test/support/mock-model/index.ts';
import { percentile, startBenchBot, type BenchBot } from './bot.ts';
import { processes, treeRss } from './process-rss.ts';
import type { BenchResult } from './report.ts';

const OWNER = 7;
const CHATS = 20;
/** Chats streaming progress while buttons are pressed (issue: 8, and a turn in the pressing chat). */
const STREAMING = 8;
const PRESS_ROUNDS = 8;
/** The people (and their private chats) who press: a private chat's budget is a call a second, a group's 20 a minute. */
const PRESSERS = Array.from({ length: STREAMING }, (_, i) => 8001 + i);
const ALLOWED = [OWNER, ...PRESSERS].join(',');
const STEERS = 40;

/**
 * Live sessions: a message's way to the CLI's input with a process kept per chat (warm) and
 * without (a process per turn; the first message of a live chat starts one); a steering
 * message into a running turn; the bridge's heap per live session; a button's
 * acknowledgement while chats stream; and, with the real claude, an idle live process's
 * memory and what its control channel costs a turn of tool calls in bypass mode.
 */
export async function benchLive(dir: string): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const oneShot = await startBenchBot(join(dir, 'one-shot'), {
    cli: { name: 'claude', command: FAKE_AGENT },
    env: { BRIDGE_ALLOWED_USERS: ALLOWED, BRIDGE_LIVE_SESSIONS: '0' },
  });
  let perTurn: number[];
  try {
    perTurn = await firstMessages(oneShot, -100, async (text) => (await oneShot.cli.invocations()).find((call) => call.prompt === text)?.startedAt);
  } finally {
    await oneShot.stop();
  }
  const live = await startBenchBot(join(dir, 'live'), {
    cli: { name: 'claude', command: FAKE_AGENT },
    env: { BRIDGE_ALLOWED_USERS: ALLOWED, BRIDGE_LIVE_SESSIONS: String(CHATS + STREAMING + 1) },
  });
  try {
    const received = (text: string) => inputAt(live, text);
    const cold = await firstMessages(live, -200, received);
    const warm = await firstMessages(live, -200, received, 'again');
    // What the bridge holds for its live processes: its heap with them idle, then with them closed.
    const withLive = heap();
    const kept = live.app.live.size;
    await live.app.live.closeAll();
    const perSession = (withLive - heap()) / kept;
    results.push(...latencies('message → prompt on the CLI’s input, a process per turn', perTurn, `${CHATS} chats, BRIDGE_LIVE_SESSIONS=0`));
    results.push(...latencies('message → prompt on the CLI’s input, live, first message (starts it)', cold));
    results.push(
      ...latencies(
        'message → prompt on the CLI’s input, live, warm',
        warm,
        `${Math.round(percentile(perTurn, 50) / Math.max(1, percentile(warm, 50)))}× faster than a process per turn (p50)`,
      ),
    );
    results.push({
      suite: 'live',
      name: 'bridge heap per live session',
      value: Math.round(perSession / 1024),
      unit: 'KiB',
      note: `${kept} idle live sessions, then closed`,
    });
    results.push(...latencies('steering message → the running CLI’s input', await steers(live), `${STEERS} messages into one turn`));
    results.push(...latencies('button acknowledged (Stop)', await presses(live), `${STREAMING} chats streaming progress, a turn running in the pressing chat`));
  } finally {
    await live.stop();
  }
  results.push(...(await realCli(join(dir, 'claude'), 'claude')));
  results.push(...(await realCli(join(dir, 'codex'), 'codex')));
  return results;
}

/** Each of CHATS chats gets one message (its text + `suffix`); how long each took to reach the CLI, by `reachedAt`. */
async function firstMessages(bot: BenchBot, firstChat: number, reachedAt: (text: string) => Promise<number | undefined>, suffix = 'hello'): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CHATS; i++) {
    const chatId = firstChat - i;
    const text = `${suffix} ${chatId}`;
    const sentAt = Date.now();
    bot.telegram.sendText({ chatId, userId: OWNER, text, chatType: 'group' });
    await answered(bot.telegram, chatId, text);
    times.push((await reachedAt(text))! - sentAt);
  }
  return times;
}

/** A turn working for a while, and STEERS messages into it, a tenth of a second apart (in a private chat: a group's budget would run out). */
async function steers(bot: BenchBot): Promise<number[]> {
  const chatId = OWNER;
  const say = (text: string) => bot.telegram.sendText({ chatId, userId: OWNER, text });
  say('tools:400 pace:50 long turn');
  await inputAtWithin(bot, 'tools:400 pace:50 long turn');
  const times: number[] = [];
  for (let i = 0; i < STEERS; i++) {
    const text = `steer ${i}`;
    const sentAt = Date.now();
    say(text);
    times.push((await inputAtWithin(bot, text)) - sentAt);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  say('/stop');
  await bot.telegram.waitFor(() => bot.telegram.botMessages(chatId).some((m) => m.text?.startsWith('⏹')), 90_000);
  return times;
}

/**
 * STREAMING private chats with long turns showing progress; in each, in turn, Stop is pressed
 * and a new turn started, PRESS_ROUNDS times: how long each press waits for its acknowledgement.
 */
async function presses(bot: BenchBot): Promise<number[]> {
  const { telegram } = bot;
  const start = (user: number, round: number) => telegram.sendText({ chatId: user, userId: user, text: `tools:600 pace:100 round ${round}` });
  const stopOf = (message: FakeMessage) => message.buttons.find((b) => 'callback_data' in b && /Stop/.test(b.text)) as { callback_data: string } | undefined;
  for (const user of PRESSERS) start(user, 0);
  const times: number[] = [];
  for (let round = 0; round < PRESS_ROUNDS; round++) {
    for (const user of PRESSERS) {
      const progress = await telegram.waitFor(() => telegram.botMessages(user).findLast((m) => stopOf(m)), 60_000);
      const pressedAt = Date.now();
      const query = telegram.pressButton({ chatId: user, messageId: progress.messageId, data: stopOf(progress)!.callback_data, userId: user });
      const answer = await telegram.waitFor(() => telegram.callbackAnswers.find((a) => a.callbackQueryId === query.id), 30_000);
      times.push(answer.at - pressedAt);
      // The stopped turn's message loses its button; the next turn brings a new one.
      await telegram.waitFor(() => !stopOf(telegram.message(user, progress.messageId)!), 30_000);
      start(user, round + 1);
    }
  }
  for (const user of PRESSERS) telegram.sendText({ chatId: user, userId: user, text: '/stop' });
  await bot.app.bot.idle();
  return times;
}

/**
 * A real CLI against the mock model: the memory of an idle live process, and a turn of five
 * shell calls in bypass mode, a process per turn against live (claude: each call allowed by
 * the bridge on the control channel; codex: its app server, which never asks in bypass), with
 * the tools each offers.
 */
async function realCli(dir: string, cli: 'claude' | 'codex'): Promise<BenchResult[]> {
  const mock = await startMockModel();
  const cliEnv = await prepareCliEnv(cli, mock.url);
  const results: BenchResult[] = [];
  try {
    const modes = { 'a process per turn': '0', live: '4' } as const;
    const turns: Record<string, number[]> = {};
    const tools: Record<string, string[]> = {};
    for (const [mode, sessions] of Object.entries(modes)) {
      const bot = await startBenchBot(join(dir, sessions), {
        cli: { name: cli, command: CLI_BINARIES[cli] },
        workdir: cliEnv.workdir,
        env: { ...cliEnv.env, BRIDGE_ALLOWED_USERS: String(OWNER), BRIDGE_LIVE_SESSIONS: sessions, BRIDGE_PERMISSION_MODE: 'bypass' },
      });
      try {
        turns[mode] = [];
        for (let i = 0; i < 6; i++) {
          const chatId = -500;
          scriptFiveCalls(mock, cli);
          const startedAt = Date.now();
          bot.telegram.sendText({ chatId, userId: OWNER, text: `five calls ${i}`, chatType: 'group' });
          await bot.telegram.waitFor(() => bot.telegram.botMessages(chatId).some((m) => (m.text ?? '').startsWith(`done ${i}`)), 120_000);
          if (i) turns[mode].push(Date.now() - startedAt); // the first starts the session
          tools[mode] = mock.modelRequests[0]!.toolNames;
        }
        if (mode === 'live') {
          await new Promise((resolve) => setTimeout(resolve, 2000)); // idle
          const rss = liveCliRss(LIVE_MARKS[cli]);
          results.push({
            suite: 'live',
            name: `RSS of an idle live ${cli} (real binary)`,
            value: Math.round(rss / 1024),
            unit: 'MiB',
            note: 'its process tree',
          });
        }
      } finally {
        await bot.stop();
      }
    }
    const [oneShotTurn, liveTurn] = [percentile(turns['a process per turn']!, 50), percentile(turns.live!, 50)];
    results.push({
      suite: 'live',
      name: `real ${cli}, 5 shell calls in bypass, a process per turn, p50`,
      value: oneShotTurn,
      unit: 'ms',
      note: `${tools['a process per turn']!.length} tools offered`,
    });
    results.push({
      suite: 'live',
      name: `real ${cli}, 5 shell calls in bypass, live, p50`,
      value: liveTurn,
      unit: 'ms',
      note: `${toolsCompared(tools['a process per turn']!, tools.live!)}; ${(liveTurn / oneShotTurn).toFixed(2)}× a process per turn`,
    });
  } finally {
    await mock.close();
    await cliEnv.cleanup();
  }
  return results;
}

/** What marks a live process of each CLI on its command line. */
const LIVE_MARKS = { claude: '--input-format', codex: ' app-server' } as const;

/** Five shell calls, then the answer: counted from the turn's own prompt, since a resumed session's requests carry the turns before. */
function scriptFiveCalls(mock: MockModel, cli: 'claude' | 'codex'): void {
  const result = cli === 'claude' ? '"tool_result"' : '"function_call_output"';
  mock.reset((request) => {
    const messages = request.messages;
    const prompt = messages.findLastIndex((message) => JSON.stringify(message).includes(request.lastUserText));
    const done = JSON.stringify(messages.slice(prompt + 1)).split(result).length - 1;
    if (done < 5) return { toolCalls: [shellToolCall(cli, `echo call ${done}`)] };
    return { text: `done ${request.lastUserText.replace(/^five calls /, '')}` };
  });
}

/** The tools a live CLI offers the model, against a process per turn's. */
function toolsCompared(perTurn: string[], live: string[]): string {
  const missing = perTurn.filter((name) => !live.includes(name));
  const added = live.filter((name) => !perTurn.includes(name));
  return `${live.length} tools offered, ${missing.length ? `missing ${missing.join(', ')}` : 'none missing'}${added.length ? `, adds ${added.join(', ')}` : ''}`;
}

/** RSS of the live CLI processes under this one (`mark` on their command line), with their children, in KiB. */
function liveCliRss(mark: string): number {
  const rows = processes();
  return treeRss(
    rows.filter((row) => row.ppid === process.pid && row.args.includes(mark)).map((row) => row.pid),
    rows,
  );
}

const answered = (telegram: FakeTelegram, chatId: number, text: string) =>
  telegram.waitFor(() => telegram.botMessages(chatId).some((m) => (m.text ?? '').includes(`echo: ${text}`)), 60_000);

/** When the fake CLI read this message on its input (it notes each beside its log). */
async function inputAt(bot: BenchBot, text: string): Promise<number | undefined> {
  const lines = (await readFile(`${bot.cli.env.FAKE_CLI_LOG}.inputs`, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
  return lines.map((line) => JSON.parse(line) as { text: string; receivedAt: number }).findLast((line) => line.text === text)?.receivedAt;
}

async function inputAtWithin(bot: BenchBot, text: string): Promise<number> {
  for (let tries = 0; tries < 3000; tries++) {
    const at = await inputAt(bot, text);
    if (at !== undefined) return at;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const seen = (await readFile(`${bot.cli.env.FAKE_CLI_LOG}.inputs`, 'utf8').catch(() => '')).trim().split('\n').slice(-3);
  throw new Error(`the CLI never read "${text}"; the last it read: ${seen.join(' | ')}`);
}

function latencies(name: string, values: number[], note?: string): BenchResult[] {
  return [
    { suite: 'live', name: `${name}, p50`, value: percentile(values, 50), unit: 'ms', ...(note ? { note } : {}) },
    { suite: 'live', name: `${name}, p99`, value: percentile(values, 99), unit: 'ms', note: `${values.length} samples` },
  ];
}

/** The heap in use after a full collection (the benchmark runs with --expose-gc). */
function heap(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}
