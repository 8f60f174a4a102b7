import { emittedAt } from './fake-cli-results.ts';
import type { ChatAppTwin, ChatOnApp } from '../test/support/chat-apps/chat-app.ts';
import { CHAT_APP_TWINS } from '../test/support/chat-apps/index.ts';
import { startChatAppWorld, type ChatAppWorld } from '../test/support/chat-apps/world.ts';
import type { BenchResult } from './report.ts';

const LATENCY_TURNS = 40;

/**
 * Every chat app side by side in one run, one bridge process serving them all against their
 * twins: what a quick and a chatty turn cost in calls to each app's API, and the time from the
 * CLI printing its result line to the answer reaching the app, p50 and p99.
 */
export async function benchTransports(): Promise<BenchResult[]> {
  const apps = await Promise.all(Object.values(CHAT_APP_TWINS).map((make) => make()));
  const world = await startChatAppWorld(apps);
  const results: BenchResult[] = [];
  try {
    for (const app of apps) results.push(...(await benchApp(world, app)));
  } finally {
    await world.stop();
  }
  return results;
}

async function benchApp(world: ChatAppWorld, app: ChatAppTwin): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  let groups = 0;
  const turn = async (chat: ChatOnApp, prompt: string) => {
    const before = app.calls().length;
    await chat.say(prompt);
    await chat.waitFor(new RegExp(`^echo: ${prompt}`), 120_000);
    await idle(() => app.calls().length);
    return app
      .calls()
      .slice(before)
      .filter((call) => call.chat === chat.id);
  };
  for (const [label, prompt] of [
    ['quick turn', 'quick'],
    ['chatty turn (20 tool calls over 1 s)', 'tools:20 pace:50'],
  ] as const) {
    const calls = await turn(app.group(++groups), prompt);
    results.push({ suite: 'transports', name: `${app.transport}: API calls, ${label}`, value: calls.length, unit: 'calls', note: methods(calls) });
  }
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_TURNS; i++) {
    const chat = app.group(++groups);
    const prompt = `turn ${i}`;
    const calls = await turn(chat, prompt);
    const answer = calls.find((call) => call.text?.includes(`echo: ${prompt}`));
    if (answer) latencies.push(answer.at - (await emittedAt(world.cli.env.FAKE_CLI_LOG!, prompt)));
  }
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((latencies.length * p) / 100) - 1)]!;
  results.push({
    suite: 'transports',
    name: `${app.transport}: result line → answer at the app, p50`,
    value: percentile(50),
    unit: 'ms',
    note: `${latencies.length} turns`,
  });
  results.push({ suite: 'transports', name: `${app.transport}: result line → answer at the app, p99`, value: percentile(99), unit: 'ms' });
  return results;
}

/** The calls by method, most first: `3 chat.update, 1 chat.postMessage`. */
function methods(calls: readonly { method: string }[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([method, n]) => `${n} ${method}`)
    .join(', ');
}

/** Until `count` has not changed for a while: the turn's last edits are in. */
export async function idle(count: () => number): Promise<void> {
  let last = -1;
  while (count() !== last) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}
