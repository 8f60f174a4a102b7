import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { seeded } from '../support/seeded.ts';
import { startMockModel, type MockModel } from '../support/mock-model/index.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { account, settled, type ChaosReport, type Sent } from './report.ts';
import { ChaosWorkers, chaosQueue, type ChaosQueue } from './chaos-workers.ts';

/**
 * The chaos run: the bridge as a real process, its chats and runs under load through the fake
 * Bot API with faults on, killed at random moments (mid-turn, mid-tool call, while a question
 * waits, mid-download, mid-announcement, during a drain) and started again, cycle after
 * cycle. At the end, every message sent must have been answered once (or, where its turn was
 * cut short more times than it is resumed, named to its chat), and every run announced once
 * (`report.ts` accounts for it).
 */
export interface ChaosOptions {
  cycles: number;
  seed: number;
  /** Chats under load at once. */
  chats?: number;
  /** Messages and spawns sent in each cycle. */
  perCycle?: number;
  /** `claude`: the real binary against the mock model, instead of the fake CLI (shorter, slower turns). */
  cli?: 'fake' | 'claude';
  /** Progress lines, one per cycle. */
  log?: (line: string) => void;
  /**
   * Runs go through a queue to two workers, one of which may be SIGKILLed or drained each
   * cycle: on `redisUrl` (BRIDGE_REDIS_URL, signed with `queueSecret`), or a redis-server of its own.
   */
  workers?: { redisUrl?: string; queueSecret?: string };
}

/**
 * At the end, the bridge has answered all it will once it has called the Bot API for nothing
 * but updates this long: longer than a group's send budget may hold its calls (a window of 60 s).
 */
const QUIET_MS = 75_000;
/** And it has this long at most to get there. */
const SETTLE_MAX_MS = 600_000;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const random = seeded(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chats = Array.from({ length: options.chats ?? 3 }, (_, i) => -7001 - i);
  const perCycle = options.perCycle ?? 6;
  const real = options.cli === 'claude' ? await realClaude() : undefined;
  const queue: ChaosQueue | undefined = options.workers ? await chaosQueue(options.workers.redisUrl, options.workers.queueSecret) : undefined;
  const world = await startTelegramWorld({
    BRIDGE_DRAIN_SECONDS: '2',
    SUBAGENTS_MAX_CONCURRENT: '2',
    ...(real?.env ?? {}),
    ...(queue?.env ?? {}),
  });
  const { TELEGRAM_BOT_TOKEN: _token, TELEGRAM_API_ROOT: _root, ...workerEnv } = world.env;
  const workers = queue ? new ChaosWorkers(workerEnv) : undefined;
  const report: ChaosReport = {
    seed: options.seed,
    cycles: options.cycles,
    kills: { sigkill: 0, drained: 0, killedDuringDrain: 0, ...(workers ? { workers: { sigkill: 0, drained: 0 } } : {}) },
    turns: { sent: 0, answered: 0, resumed: 0, told: 0, refused: 0, lost: 0, duplicated: 0, windowDuplicated: 0, outOfOrder: 0 },
    runs: { spawned: 0, announced: 0, interrupted: 0, cut: 0, lost: 0, duplicated: 0, windowDuplicated: 0, unknownOutcome: 0, moved: 0 },
    resumeMs: [],
    windowMs: 0,
    problems: [],
    logs: [],
  };
  const sent: Sent[] = [];
  const kills: number[] = [];
  const starts: number[] = [];
  const { telegram } = world;
  // Whoever asks a question gets the first option, as a person would, a moment later.
  const pressed = new Set<string>();
  const answering = setInterval(() => {
    for (const chatId of chats) {
      for (const message of telegram.botMessages(chatId)) {
        const key = `${chatId}:${message.messageId}`;
        const button = message.buttons[0] as { callback_data?: string } | undefined;
        if (pressed.has(key) || !(message.text ?? '').startsWith('❓') || !button?.callback_data) continue;
        pressed.add(key);
        telegram.pressButton({ chatId, messageId: message.messageId, data: button.callback_data, userId: OWNER });
      }
    }
  }, 250);
  const say = (chatId: number, text: string) => telegram.sendText({ chatId, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
  let n = 0;
  const send = (chatId: number) => {
    const id = `c${n++}`;
    const kind = pick(real ? ['plain', 'plain', 'spawn'] : ['tools', 'tools', 'sleep', 'file', 'question', 'spawn']);
    const at = Date.now();
    if (kind === 'spawn') {
      // On workers, some runs outlast a worker's drain: they are handed back.
      const tools = workers ? 2 + Math.floor(random() * 8) : 2;
      const task = real ? `reply ${id}` : `tools:${tools} pace:${200 + Math.floor(random() * 500)} ${id}`;
      const message = say(chatId, `/spawn --label ${id} "${task}"`);
      sent.push({ chatId, messageId: message.message_id, text: id, kind: 'spawn', at });
      return;
    }
    const text = real
      ? `reply ${id}`
      : kind === 'tools'
        ? `tools:${1 + Math.floor(random() * 3)} pace:${200 + Math.floor(random() * 600)} ${id}`
        : kind === 'sleep'
          ? `sleep:${(0.3 + random() * 2).toFixed(1)} ${id}`
          : kind === 'question'
            ? `question ${id}`
            : `${id} a file`;
    const message =
      kind === 'file'
        ? telegram.sendFile({
            chatId,
            userId: OWNER,
            chatType: 'group',
            firstName: 'Ada',
            kind: 'document',
            bytes: Buffer.alloc(64 * 1024, 1),
            fileName: `${id}.log`,
            caption: text,
          })
        : say(chatId, text);
    sent.push({ chatId, messageId: message.message_id, text, kind: 'turn', at });
  };
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  try {
    await workers?.start();
    // Each message its own turn, in order: what was answered can be told apart.
    for (const chatId of chats) say(chatId, '/busy queue');
    await telegram.waitFor(() => chats.every((chatId) => telegram.botMessages(chatId).some((m) => /^📨 Busy mode: queue/.test(m.text ?? ''))), 30_000);
    starts.push(Date.now());
    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      injectFaults(world, random);
      for (let i = 0; i < perCycle; i++) {
        // Not into a chat whose agent waits on a question: the message would answer it, and be hard to follow.
        const free = chats.filter((chatId) => !telegram.botMessages(chatId).some((m) => (m.text ?? '').startsWith('❓') && m.buttons.length));
        send(pick(free.length ? free : chats));
        await delay(random() * 300);
      }
      await delay(random() * (real ? 3000 : 2500));
      if (workers) await workers.fault(random, report.kills.workers!);
      const way = random();
      kills.push(Date.now());
      if (way < 0.7) {
        report.kills.sigkill++;
        world.bridge.kill('SIGKILL');
      } else {
        report.kills.drained++;
        world.bridge.kill('SIGTERM');
        if (way < 0.85) {
          await delay(300 + random() * 1000);
          report.kills.killedDuringDrain++;
          kills.push(Date.now());
          world.bridge.kill('SIGKILL');
        }
      }
      await world.bridge.exited;
      // Messages that reach Telegram while the bridge is down wait there for it.
      if (random() < 0.5) send(pick(chats));
      starts.push(Date.now());
      report.logs.push(world.bridge.log());
      await world.restart('SIGKILL');
      options.log?.(`cycle ${cycle}/${options.cycles}: ${sent.length} sent`);
    }
    telegram.clearFaults();
    // The last worker fault's worker is back before the end is awaited.
    await workers?.fault(() => 1, report.kills.workers!);
    // A backlog drains at a group's send budget (20 messages a minute): the bridge is done once it is quiet.
    const quietSince = () => Math.max(0, ...telegram.calls.filter((call) => call.method !== 'getUpdates').map((call) => call.time));
    const settleBy = Date.now() + SETTLE_MAX_MS;
    while (!sent.every((item) => settled(telegram.botMessages(item.chatId), item)) && Date.now() < settleBy && Date.now() - quietSince() < QUIET_MS) {
      await delay(500);
    }
    await delay(1500); // a duplicate would be out by now
    await account(report, sent, world, kills, starts);
    report.logs.push(world.bridge.log());
  } finally {
    clearInterval(answering);
    await workers?.stop();
    if (workers) report.logs.push(...workers.logs.map((log) => `worker ${log}`));
    await world.stop();
    await queue?.stop();
    await real?.stop();
  }
  return report;
}

/** Each cycle's Bot API faults: rate limits, server errors and dropped connections, on sends, edits and downloads. */
function injectFaults(world: TelegramWorld, random: () => number): void {
  const { telegram } = world;
  if (random() < 0.5) telegram.failNext('sendMessage', { code: 429, retryAfter: 1 });
  if (random() < 0.5) telegram.failNext('editMessageText', { code: 502, description: 'Bad Gateway' });
  if (random() < 0.4) telegram.failNext('sendMessage', { networkDrop: true });
  if (random() < 0.3) telegram.failNext('download', { networkDrop: true });
}

/** The real claude against the mock model, answering `reply <id>` with the id after a short shell call. */
async function realClaude(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const mock: MockModel = await startMockModel();
  const cliEnv: CliEnv = await prepareCliEnv('claude', mock.url);
  mock.reset((request) => {
    const id = /\bc\d+\b/.exec(request.lastUserText)?.[0] ?? /\bc\d+\b/.exec(JSON.stringify(request.messages))?.[0] ?? 'c?';
    if (!request.toolResults.length) return { toolCalls: [{ name: 'Bash', input: { command: 'sleep 3; echo worked', description: 'work' } }] };
    return { text: `reply ${id}` };
  });
  return {
    env: {
      ...cliEnv.env,
      BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
      BRIDGE_DEFAULT_CLI: 'claude',
      BRIDGE_WORKDIR: cliEnv.workdir,
    },
    async stop() {
      await mock.close();
      await cliEnv.cleanup();
    },
  };
}
