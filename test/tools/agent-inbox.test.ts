import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/create-app.ts';
import { ChatStore } from '../../src/kernel/store/chat-store.ts';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { AgentInbox, reportsTurn, runReport } from '../../src/chat/agent/agent-inbox.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { testConfig } from '../support/test-config.ts';
import { silentLog } from '../support/silent-log.ts';
import { chat } from '../support/chats.ts';

let world: FakeCliWorld;
let app: App;
let out: RecordingOutbound;

beforeEach(async () => {
  world = await fakeCliWorld();
  out = new RecordingOutbound();
  const config = await testConfig({ dataDir: world.dir, workdir: world.dir, env: world.env });
  app = await createApp({ config, store: await ChatStore.open(world.dir), out, log: silentLog() });
});
afterEach(async () => {
  await app.shutdown();
  await world.cleanup();
});

const run = (n: number, result: string, status: SubagentRunRecord['status'] = 'completed'): SubagentRunRecord => ({
  runId: `run-${n}`,
  number: n,
  chat: chat(-1),
  requesterKey: 'telegram:-1',
  requester: { kind: 'agent', chatKey: 'telegram:-1' },
  cli: 'fake',
  task: `task ${n}`,
  label: `Job ${n}`,
  cwd: world.dir,
  depth: 1,
  timeoutSeconds: 60,
  status,
  createdAt: 0,
  startedAt: 1000,
  endedAt: 61_000,
  result,
  ...(status === 'completed' ? {} : { error: 'fake exited with code 3' }),
  logFile: '/dev/null',
  delivery: { chat: 'sent', sentParts: 1, attempts: 0, agent: 'pending' },
});

describe('handing results back to the main agent', () => {
  it("batches results that finish together into one turn of the chat's session", async () => {
    const inbox = new AgentInbox(app.bot, true, 200);
    await Promise.all([
      inbox.deliver([runReport(run(1, 'first result'))]),
      inbox.deliver([run(2, 'second result'), run(3, 'partial', 'failed')].map(runReport)),
    ]);
    await app.bot.idle();
    const turns = (await world.invocations()).map((c) => c.prompt);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toBe(
      reportsTurn(
        [run(1, 'first result'), run(2, 'second result'), run(3, 'partial', 'failed')].map((r) => runReport(r).section),
        true,
      ),
    );
    expect(turns[0]).toContain('## Subagent #3 "Job 3" (id run-3, started with spawn_subagent) failed: fake exited with code 3 after 1:00');
  });

  it('waits for the turn in progress, then gives everything gathered meanwhile in one turn', async () => {
    const inbox = new AgentInbox(app.bot, false, 50);
    const session = app.bot.chats.get(chat(-1));
    await app.bot.turns.start(session, { text: 'sleep:1 working' });
    const first = inbox.deliver([runReport(run(1, 'early'))]);
    await new Promise((r) => setTimeout(r, 300));
    const second = inbox.deliver([runReport(run(2, 'later'))]);
    await Promise.all([first, second]);
    await app.bot.idle();
    const turns = (await world.invocations()).map((c) => c.prompt);
    expect(turns).toHaveLength(2);
    expect(turns[1]).toContain('early');
    expect(turns[1]).toContain('later');
    expect(turns[1]).toContain('the user has not seen them');
  });
});
