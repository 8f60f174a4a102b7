// How many of our files a message walks to its answer: a measure of the design, not of speed.
// The bridge runs from its sources (one module a file) against the chat apps' twins, and V8's
// precise coverage, read through the inspector, names every function that ran between a
// person's message and the bridge's last word on it. `WALKS_LIST=1` prints the files.
import { execa } from 'execa';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { FAKE_AGENT } from '../test/support/fake-cli.ts';
import type { ChatOnApp } from '../test/support/chat-apps/chat-app.ts';
import { discordTwin } from '../test/support/chat-apps/discord.ts';
import { slackTwin } from '../test/support/chat-apps/slack.ts';
import { startChatAppWorld } from '../test/support/chat-apps/world.ts';
import type { BenchResult } from './report.ts';
import { idle } from './transports.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));

export async function benchWalks(): Promise<BenchResult[]> {
  const [slack, discord] = [await slackTwin(), await discordTwin()];
  const world = await startChatAppWorld([slack, discord]);
  // The world's bridge is the built one (one bundle): it makes way for one run from src/.
  world.bridge.kill('SIGTERM');
  await world.bridge.exited;
  const bridge = execa('node', ['--inspect=127.0.0.1:0', '--import', 'tsx', 'src/main.ts'], {
    cwd: REPO,
    env: { BRIDGE_CLAUDE_COMMAND: FAKE_AGENT, BRIDGE_SANDBOX: 'off', ...world.env },
    reject: false,
    stdin: 'ignore',
  });
  try {
    const coverage = await Coverage.of(await said(bridge, /Debugger listening on (ws:\/\/\S+)/));
    await said(bridge, /serving /);
    for (const app of [slack, discord]) await app.connected?.();
    const message = async (chat: ChatOnApp) => {
      await chat.say('hello');
      await chat.waitFor(/^echo: hello/, 60_000);
    };
    const spawn = async (chat: ChatOnApp) => {
      await chat.command('spawn', '"say:walked"');
      await chat.waitFor(/walked/, 60_000);
    };
    const results: BenchResult[] = [];
    for (const [label, app, act] of [
      ['a Slack message to its answer', slack, message],
      ['a Discord /spawn to its announcement', discord, spawn],
    ] as const) {
      // Once to load what loads lazily, then measured warm, less what an idle bridge runs as long.
      await act(app.group(1));
      const started = Date.now();
      await coverage.take();
      await act(app.group(2));
      await idle(() => app.calls().length);
      const walked = await coverage.take();
      await new Promise((resolve) => setTimeout(resolve, Date.now() - started));
      const ranIdle = await coverage.take();
      const files = [...walked].filter((file) => !ranIdle.has(file));
      if (process.env.WALKS_LIST) console.error(`${label}:\n${files.sort().join('\n')}`);
      results.push({ suite: 'walks', name: `files ${label} walks`, value: files.length, unit: 'files', note: folders(files) });
    }
    coverage.close();
    return results;
  } finally {
    bridge.kill('SIGTERM');
    await bridge;
    await world.stop();
  }
}

/** The bridge's functions that ran since the last take, by source file under src/. */
class Coverage {
  private next = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const { id, result } = JSON.parse((data as Buffer).toString('utf8')) as { id: number; result: unknown };
      this.waiting.get(id)?.(result);
      this.waiting.delete(id);
    });
  }

  static async of(url: string): Promise<Coverage> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const coverage = new Coverage(socket);
    await coverage.post('Profiler.enable');
    await coverage.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    return coverage;
  }

  /** The files whose functions (not a module's own top level) ran since the last take: a take resets the counts. */
  async take(): Promise<Set<string>> {
    const { result } = (await this.post('Profiler.takePreciseCoverage')) as {
      result: { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[];
    };
    const files = new Set<string>();
    for (const script of result) {
      if (!script.url.startsWith('file://')) continue;
      const path = relative(REPO, fileURLToPath(script.url));
      if (!path.startsWith('src/')) continue;
      const ran = script.functions.some((f) => f.ranges[0]!.count > 0 && !(f.functionName === '' && f.ranges[0]!.startOffset === 0));
      if (ran) files.add(path);
    }
    return files;
  }

  close(): void {
    this.socket.close();
  }

  private post(method: string, params: object = {}): Promise<unknown> {
    const id = this.next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }
}

/** The first match of `pattern` on the process's stderr (its log, and node's own lines). */
async function said(child: ReturnType<typeof execa>, pattern: RegExp): Promise<string> {
  let seen = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      seen += String(chunk);
      const match = pattern.exec(seen);
      if (!match) return;
      child.stderr!.off('data', read);
      resolve(match[1] ?? match[0]);
    };
    child.stderr!.on('data', read);
    void child.then(() => reject(new Error(`the bridge ended before it said ${pattern}: ${seen.slice(-2000)}`)));
  });
}

/** How many folders, and files in each tier: `14 folders: chat 9, engine 12…`. */
function folders(files: readonly string[]): string {
  const tiers = new Map<string, number>();
  for (const file of files) {
    const tier = file.split('/').length > 2 ? file.split('/')[1]! : '(entry)';
    tiers.set(tier, (tiers.get(tier) ?? 0) + 1);
  }
  const count = new Set(files.map((file) => file.slice(0, file.lastIndexOf('/')))).size;
  return `${count} folders: ${[...tiers].map(([tier, n]) => `${tier} ${n}`).join(', ')}`;
}
