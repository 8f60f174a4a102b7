import { readFile } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { startWorkerProcess, tempDir, type BridgeProcess } from '../test/support/bridge-process.ts';
import { FAKE_AGENT } from '../test/support/fake-cli.ts';
import { TEST_QUEUE_SECRET } from '../test/support/queue-world.ts';
import { startRedis } from '../test/support/redis-server.ts';
import { emittedAt } from './fake-cli-results.ts';
import { percentile, startBenchBot, type BenchBot } from './bot.ts';
import { treeRss } from './process-rss.ts';
import type { BenchResult } from './report.ts';

const OWNER = 7;
/** Chats, each with a live CLI: its second message is timed, and their idle CLIs weighed. */
const CHATS = 20;

/**
 * A chat's session embedded (its live CLI in the bridge's process tree) against on a worker
 * (BRIDGE_SESSION_WORKERS=on, two local worker processes on a real redis-server), in one run:
 * a message's way to the CLI's input and the result's way back to the chat app's twin (p50,
 * p99); and the memory live sessions take, on the bridge's host and on the workers.
 */
export async function benchSessionWorkers(dir: string): Promise<BenchResult[]> {
  const embedded = await measure(join(dir, 'embedded'), {});
  const redis = await startRedis();
  const workers: BridgeProcess[] = [];
  let remote: Measured;
  try {
    const env = { BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET };
    remote = await measure(join(dir, 'workers'), { ...env, BRIDGE_SESSION_WORKERS: 'on' }, async (bot) => {
      for (const name of ['bench-w1', 'bench-w2']) {
        const data = await tempDir(`bench-${name}-`);
        const worker = startWorkerProcess({
          ...(bot.cli.env as Record<string, string>),
          ...env,
          BRIDGE_DATA_DIR: data.path,
          BRIDGE_WORKER_NAME: name,
          BRIDGE_WORKER_LIVE_SESSIONS: String(CHATS),
          CLAUDE_CONFIG_DIR: join(data.path, 'claude'),
          BRIDGE_CLAUDE_COMMAND: FAKE_AGENT,
        });
        await worker.waitForLog(/taking work from/, 60_000);
        workers.push(worker);
      }
      return workers.map((worker) => worker.pid);
    });
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
    await redis.stop();
  }
  const row = (name: string, value: number, note: string): BenchResult => ({ suite: 'session-workers', name, value, unit: 'ms', note });
  const mb = (kib: number) => Math.round(kib / 1024);
  return [
    row(
      'message → CLI input, embedded, p50',
      percentile(embedded.toInput, 50),
      `p99 ${percentile(embedded.toInput, 99)} ms; ${CHATS} chats' second message, to a warm live CLI`,
    ),
    row(
      'message → CLI input, on a worker, p50',
      percentile(remote.toInput, 50),
      `p99 ${percentile(remote.toInput, 99)} ms; added p50 ${percentile(remote.toInput, 50) - percentile(embedded.toInput, 50)} ms`,
    ),
    row('result line → answer at the twin, embedded, p50', percentile(embedded.back, 50), `p99 ${percentile(embedded.back, 99)} ms`),
    row(
      'result line → answer at the twin, on a worker, p50',
      percentile(remote.back, 50),
      `p99 ${percentile(remote.back, 99)} ms; added p50 ${percentile(remote.back, 50) - percentile(embedded.back, 50)} ms`,
    ),
    {
      suite: 'session-workers',
      name: 'RSS per live session (fake CLI), embedded: on the bridge’s host',
      value: mb(embedded.hostPerSession),
      unit: 'MB',
      note: `${CHATS} idle live chats; the host has ${mb(totalmem() / 1024)} MB: about ${Math.floor(totalmem() / 1024 / embedded.hostPerSession)} such sessions fill it`,
    },
    {
      suite: 'session-workers',
      name: 'RSS per live session (fake CLI), on workers: on the bridge’s host',
      value: Math.round((remote.hostPerSession / 1024) * 10) / 10,
      unit: 'MB',
      note: `the CLIs are the workers': ${mb(remote.workerPerSession)} MB per session there, ${CHATS} sessions across 2 workers; each worker machine like this host holds about ${Math.floor(totalmem() / 1024 / Math.max(1, remote.workerPerSession))}`,
    },
  ];
}

interface Measured {
  toInput: number[];
  back: number[];
  /** KiB of the bridge's host per live session: the bridge's process tree. */
  hostPerSession: number;
  /** KiB per live session in the workers' process trees. */
  workerPerSession: number;
}

async function measure(dir: string, env: Record<string, string>, withWorkers?: (bot: BenchBot) => Promise<number[]>): Promise<Measured> {
  const bot = await startBenchBot(dir, {
    cli: { name: 'claude', command: FAKE_AGENT },
    env: { BRIDGE_ALLOWED_USERS: String(OWNER), BRIDGE_LIVE_SESSIONS: String(CHATS + 1), ...env },
  });
  try {
    const workerPids = (await withWorkers?.(bot)) ?? [];
    const log = bot.cli.env.FAKE_CLI_LOG!;
    // Each chat a group of its own (a group's send budget is 20 calls a minute): its first
    // message starts its live CLI, its second is the one timed, to a warm process.
    const turn = async (chatId: number, text: string) => {
      const sentAt = Date.now();
      bot.telegram.sendText({ chatId, userId: OWNER, text, chatType: 'group' });
      const answer = await answerOf(bot, chatId, `echo: ${text} `);
      return { toInput: (await inputAt(log, text)) - sentAt, back: answer.time - (await resultAt(log, text)) };
    };
    // The bridge's host is this process's tree less the workers' (local here, their own machines in production).
    const host = () => treeRss([process.pid]) - treeRss(workerPids);
    const hostBefore = host();
    const workersBefore = treeRss(workerPids);
    for (let i = 0; i < CHATS; i++) await turn(-1000 - i, `start ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Memory: the trees with CHATS idle live CLIs against before.
    const hostPerSession = Math.max(0, host() - hostBefore) / CHATS;
    const workerPerSession = workerPids.length ? Math.max(0, treeRss(workerPids) - workersBefore) / CHATS : 0;
    const toInput: number[] = [];
    const back: number[] = [];
    for (let i = 0; i < CHATS; i++) {
      const measured = await turn(-1000 - i, `again ${i}`);
      toInput.push(measured.toInput);
      back.push(measured.back);
    }
    return { toInput, back, hostPerSession, workerPerSession };
  } finally {
    await bot.stop();
  }
}

/** The call that brought the answer to the twin: a quick turn's is the progress message edited, or a message of its own. */
function answerOf(bot: BenchBot, chatId: number, start: string) {
  const { telegram } = bot;
  const matches = (call: { status?: number; params: Record<string, unknown> }) =>
    call.status !== undefined && call.params.chat_id === chatId && String(call.params.text).startsWith(start);
  return telegram.waitFor(() => [...telegram.callsTo('editMessageText'), ...telegram.callsTo('sendMessage')].find(matches), 60_000);
}

/** When the fake CLI printed this turn's result (it notes that just after printing: the answer may be at the twin first). */
async function resultAt(log: string, text: string): Promise<number> {
  for (let tries = 0; ; tries++) {
    const at = await emittedAt(log, text).catch(() => undefined);
    if (at !== undefined || tries > 200) return at!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** When the fake CLI read this message on its input. */
async function inputAt(log: string, text: string): Promise<number> {
  const lines = (await readFile(`${log}.inputs`, 'utf8')).trim().split('\n');
  return lines.map((line) => JSON.parse(line) as { text: string; receivedAt: number }).findLast((line) => line.text === text)!.receivedAt;
}
