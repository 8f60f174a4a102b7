import { chmodSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { delay } from '../src/kernel/concurrency/delay.ts';
import { FAKE_AGENT } from '../test/support/fake-cli.ts';
import { REAL_ACP_AGENTS, startRealAcpWorld } from '../test/support/real-acp-agents.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../test/support/telegram-world.ts';
import { percentile } from './bot.ts';
import { processes, treeRss } from './process-rss.ts';
import type { BenchResult } from './report.ts';

const TAP = fileURLToPath(new URL('./stdio-tap.mjs', import.meta.url));
/** Turns measured per CLI, after the first (which starts its process). */
const TURNS = 8;
/** How long each turn works, and the pause before each message: see measure(). */
const TURN_MS = 1500;
const PAUSE_MS = 1200;
/** How far an ACP agent’s p50 may be from claude’s, each way, and still count as the same. */
const WITHIN_MS = 20;

/** A line that crossed the tap: when, which way, and its first bytes. */
interface Crossing {
  at: number;
  dir: 'in' | 'out';
  head: string;
}

/** How a CLI's input shows a turn's prompt, and its output the turn's end. */
interface Dialect {
  isPrompt(head: string, text: string): boolean;
  /** The line ending the turn whose prompt is `prompt`. */
  end(after: Crossing[], prompt: Crossing): Crossing | undefined;
}

const STREAM_JSON: Dialect = {
  isPrompt: (head, text) => head.includes('"type":"user"') && head.includes(text),
  end: (after) => after.find((line) => line.dir === 'out' && line.head.startsWith('{"type":"result"')),
};

const ACP: Dialect = {
  isPrompt: (head, text) => head.includes('"method":"session/prompt"') && head.includes(text),
  end: (after, prompt) => {
    const id = /"id":("[^"]*"|\d+)/.exec(prompt.head)?.[1];
    if (id === undefined) return undefined;
    const answers = new RegExp(`"id":${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[,}]`);
    return after.find((line) => line.dir === 'out' && answers.test(line.head) && !line.head.includes('"method"'));
  },
};

/** Where a CLI's timings go: a script the bridge runs as the CLI, which runs it behind the tap. */
function tapped(dir: string, name: string, binary: string): { command: string; log: string } {
  const log = join(dir, `${name}.tap.jsonl`);
  const command = join(dir, `${name}-tapped`);
  writeFileSync(command, `#!/bin/sh\nexec ${quote([process.execPath, TAP, log, binary])} "$@"\n`);
  chmodSync(command, 0o755);
  return { command, log };
}

/**
 * The lines of a turn in the tap's log: its prompt and its end. The tap notes a line after it
 * has passed it on, so the answer can reach the chat app before its end is noted: the log is
 * read again until it is (each line's time is when it crossed, not when it was noted).
 */
async function crossed(log: string, dialect: Dialect, text: string): Promise<{ prompt: Crossing; end: Crossing }> {
  for (let tries = 0; ; tries++) {
    const crossings = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .flatMap((line) => {
        // A line being written as it is read is read whole the next time.
        try {
          return [JSON.parse(line) as Crossing];
        } catch {
          return [];
        }
      });
    const at = crossings.findIndex((line) => line.dir === 'in' && dialect.isPrompt(line.head, text));
    const end = at < 0 ? undefined : dialect.end(crossings.slice(at + 1), crossings[at]!);
    if (end) return { prompt: crossings[at]!, end };
    if (tries === 50) throw new Error(at < 0 ? `the CLI's input never had the prompt "${text}"` : `the CLI never ended the turn of "${text}" on its output`);
    await delay(100);
  }
}

interface Measured {
  /** From the message sent at the chat app to its prompt on the CLI's input. */
  toPrompt: number[];
  /** From the CLI's end of the turn on its output to the answer at the chat app. */
  toAnswer: number[];
  /** RSS of the CLI's process tree, idle after its turns, in KiB. */
  rss: number;
}

/**
 * TURNS + 1 messages in one private chat, one after another, each timed at both ends of the
 * bridge. Telegram takes a call a second in a private chat, and the bridge keeps to it: each
 * turn lasts TURN_MS and comes PAUSE_MS after the last, so that neither its progress message nor
 * its answer waits on the call before it, and what is measured is the bridge's own time.
 */
async function measure(world: TelegramWorld, log: string, dialect: Dialect, message: (i: number) => string, answer: (i: number) => RegExp): Promise<Measured> {
  const { telegram } = world;
  const toPrompt: number[] = [];
  const toAnswer: number[] = [];
  for (let i = 0; i <= TURNS; i++) {
    const text = message(i);
    await delay(PAUSE_MS);
    const sentAt = Date.now();
    telegram.sendText({ chatId: OWNER, userId: OWNER, text, chatType: 'private', firstName: 'Ada' });
    await telegram.waitFor(() => telegram.botMessages(OWNER).some((m) => answer(i).test(m.text ?? '')), 120_000);
    const answeredAt = Date.now();
    if (i === 0) continue;
    const { prompt, end } = await crossed(log, dialect, text);
    toPrompt.push(prompt.at - sentAt);
    toAnswer.push(answeredAt - end.at);
  }
  // Idle, as it waits for the next message: the CLI's tree under the tap, the tap left out.
  await delay(2000);
  const rows = processes();
  const taps = rows.filter((row) => row.args.includes(TAP) && row.args.includes(log)).map((row) => row.pid);
  const rss = treeRss(
    rows.filter((row) => taps.includes(row.ppid)).map((row) => row.pid),
    rows,
  );
  return { toPrompt, toAnswer, rss };
}

/**
 * The bridge's own time on an ACP agent's turn against claude's: from a message at the chat app
 * to `session/prompt` on the agent's input, and from the agent's answer to `session/prompt` on
 * its output to the answer at the chat app, each p50 of TURNS warm turns, through a tap that
 * notes when lines cross (the same for every CLI). Claude's side is the fake CLI speaking its
 * live protocol (the bridge's time does not depend on the model's); the ACP agents are the real
 * ones the suite runs, against the mock model, and their memory is their idle process trees.
 */
export async function benchAcp(dir: string): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const claudeTap = tapped(dir, 'claude', FAKE_AGENT);
  const claudeWorld = await startTelegramWorld({ BRIDGE_CLAUDE_COMMAND: claudeTap.command });
  let claude: Measured;
  try {
    claude = await measure(
      claudeWorld,
      claudeTap.log,
      STREAM_JSON,
      (i) => `sleep:${TURN_MS / 1000} bench ${i}`,
      (i) => new RegExp(`^echo: sleep:${TURN_MS / 1000} bench ${i}\\b`),
    );
  } finally {
    await claudeWorld.stop();
  }
  const baseline = { toPrompt: percentile(claude.toPrompt, 50), toAnswer: percentile(claude.toAnswer, 50) };
  results.push(
    { suite: 'acp', name: 'claude (stream-json): message → prompt on its input, p50', value: baseline.toPrompt, unit: 'ms', note: `${TURNS} warm turns` },
    { suite: 'acp', name: 'claude (stream-json): its result → answer at the chat app, p50', value: baseline.toAnswer, unit: 'ms' },
  );
  for (const agent of REAL_ACP_AGENTS) {
    let log = '';
    const real = await startRealAcpWorld(
      agent,
      {},
      {
        command: (binary) => {
          const tap = tapped(dir, agent.id, binary);
          log = tap.log;
          return tap.command;
        },
      },
    );
    try {
      real.script((request) => {
        const turn = /bench (\d+)/.exec(request.lastUserText)?.[1];
        return turn === undefined ? { text: 'ok' } : { text: `answer ${turn}`, delayMs: TURN_MS };
      });
      const measured = await measure(
        real.world,
        log,
        ACP,
        (i) => `bench ${i}`,
        (i) => new RegExp(`^answer ${i}\\b`),
      );
      const [toPrompt, toAnswer] = [percentile(measured.toPrompt, 50), percentile(measured.toAnswer, 50)];
      const against = (value: number, claudes: number) =>
        `${value - claudes >= 0 ? '+' : ''}${value - claudes} ms against claude's: ${Math.abs(value - claudes) <= WITHIN_MS ? 'within' : 'NOT within'} ${WITHIN_MS} ms`;
      results.push(
        {
          suite: 'acp',
          name: `${agent.id} (ACP): message → session/prompt on its input, p50`,
          value: toPrompt,
          unit: 'ms',
          note: against(toPrompt, baseline.toPrompt),
        },
        {
          suite: 'acp',
          name: `${agent.id} (ACP): its prompt's answer → answer at the chat app, p50`,
          value: toAnswer,
          unit: 'ms',
          note: against(toAnswer, baseline.toAnswer),
        },
        {
          suite: 'acp',
          name: `${agent.id} (ACP): RSS of an idle live agent (real binary)`,
          value: Math.round(measured.rss / 1024),
          unit: 'MiB',
          note: 'its process tree',
        },
      );
    } finally {
      await real.stop();
    }
  }
  return results;
}
