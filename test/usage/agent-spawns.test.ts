import { describe, expect, it } from 'vitest';
import { chat } from '../support/chats.ts';
import { appPerTest, spawnFrom } from '../support/app-world.ts';
import { origin } from '../../src/work/tools/runs.ts';
import type { ToolScope } from '../../src/work/tools/scope.ts';
import type { ToolDeps } from '../../src/work/tools/tool.ts';

// What the agent spawns while it works for a person spends that person's budget: asking the
// agent to spawn is no way around one's day. Every fake CLI turn and run costs $0.0010.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1', BRIDGE_PERSON_DAILY_BUDGET_USD: '0.002' } });

describe("the agent's spawns", () => {
  it("name the person whose turn the agent was working for, and the one a calling run's cost is for", () => {
    const scope: ToolScope = {
      address: chat(-1),
      depth: 0,
      kind: 'main',
      tools: new Set(),
      sessionId: () => undefined,
      turnBy: () => ({ id: '1', key: 'telegram:1' }),
    };
    const deps = { subagents: { registry: { get: () => undefined } }, chatDefaults: () => ({ cwd: '/', cli: 'fake' }) } as unknown as ToolDeps;
    expect(origin(scope, deps).requester).toEqual({ kind: 'agent', chatKey: 'telegram:-1', for: 'telegram:1' });
    const nobody: ToolScope = { ...scope, turnBy: () => undefined };
    expect(origin(nobody, deps).requester).toEqual({ kind: 'agent', chatKey: 'telegram:-1' });
  });

  it('are charged to that person, and refused once their day is spent', async () => {
    const agent = { kind: 'agent', chatKey: 'telegram:-1', for: 'telegram:1' } as const;
    for (const task of ['say:one', 'say:two']) expect(await spawnFrom(t.app, t.world, task, -1, { requester: agent })).toMatchObject({ ok: true });
    await t.app.bot.idle();
    const usage = async () => {
      await t.app.bot.handleMessage({ address: chat(-1), user: { id: '1', name: 'Ada' }, text: '/usage' });
      return t.out.textsTo(-1).at(-1)!;
    };
    await expect.poll(usage).toMatch(/\nYou today: \$0\.0020 across chats, \$0\.0020 here of your daily budget of \$0\.0020/);
    expect(await spawnFrom(t.app, t.world, 'say:three', -1, { requester: agent })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^💸 (Ada, you have|You have) spent \$0\.0020 today across chats/),
    });
    // Work nobody typed (a webhook's) spends only its chat's.
    expect(await spawnFrom(t.app, t.world, 'say:hook', -1, { requester: { kind: 'hook', hook: 'ci' } })).toMatchObject({ ok: true });
  });
});
