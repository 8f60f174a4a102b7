import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { buildPolicy } from '../../src/policy/tool-policy.ts';
import type { SpawnOrigin } from '../../src/subagents/spawner.ts';
import { openApp } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

// The one way a run is built: /spawn, the spawn tool and plan steps all come through here.
let world: FakeCliWorld;
let app: App;

beforeEach(async () => {
  world = await fakeCliWorld();
  const agents = join(world.dir, '.bridge', 'agents', 'reviewer');
  await mkdir(agents, { recursive: true });
  await writeFile(
    join(agents, 'agent.json'),
    JSON.stringify({ name: 'Code Reviewer', description: 'Reviews diffs', model: 'agent-model', allowedTools: ['Read', 'Grep'], maxTurns: 5 }),
  );
  await writeFile(join(agents, 'prompt.md'), 'You review code.\n');
  app = await openApp(world, new RecordingOutbound(), { subagents: { maxDepth: 2 } });
});
afterEach(async () => {
  await app.shutdown();
  await world.cleanup();
});

const origin = (extra: Partial<SpawnOrigin> = {}): SpawnOrigin => ({
  address: { chatId: -1 },
  requester: { kind: 'user', userId: 1 },
  cwd: world.dir,
  cli: 'fake',
  depth: 0,
  ...extra,
});
const prepare = (intent: Parameters<App['subagents']['spawner']['prepare']>[0], from = origin()) => app.subagents.spawner.prepare(intent, from);

describe('building a run', () => {
  it('takes each field from the spawn, else its agent, else the origin, else the bridge', async () => {
    expect(await prepare({ task: ' look ', agent: 'reviewer' })).toEqual({
      ok: true,
      request: expect.objectContaining({
        task: 'look',
        label: 'Code Reviewer',
        cli: 'fake',
        model: 'agent-model',
        agent: 'reviewer',
        agentPrompt: 'You review code.',
        maxTurns: 5,
        depth: 1,
        cwd: world.dir,
        timeoutSeconds: 1800,
        policy: { allowedTools: ['Read', 'Grep'], approvals: false },
      }),
    });
    expect(await prepare({ task: 'look', agent: 'reviewer', label: 'Mine', model: 'spawn-model', allow: ['Read'] })).toMatchObject({
      ok: true,
      request: { label: 'Mine', model: 'spawn-model', policy: { allowedTools: ['Read'] } },
    });
    const plain = await prepare({ task: 'look' });
    expect(plain.ok && plain.request).toMatchObject({ cli: 'fake', depth: 1 });
    expect(plain.ok && plain.request.policy).toBeUndefined();
  });

  it('turns every bad argument and policy rule into a sentence, never an exception', async () => {
    expect(await prepare({ task: '  ' })).toEqual({ ok: false, error: 'The task is empty.' });
    expect(await prepare({ task: 'x', cli: 'cobol' })).toEqual({ ok: false, error: 'Unknown CLI "cobol". Available: fake.' });
    expect(await prepare({ task: 'x', agent: 'nobody' })).toEqual({ ok: false, error: 'Unknown agent "nobody". Known: reviewer.' });
    expect(await prepare({ task: 'x', autoApprove: true })).toEqual({
      ok: false,
      error: 'INVALID_PERMISSION_CONFIG: auto-approval requires a non-empty list of allowed tools (--allow)',
    });
    expect(await prepare({ task: 'x', allow: ['Bash'], deny: ['Bash'] })).toEqual({
      ok: false,
      error: 'INVALID_ARGUMENT: Bash cannot be both allowed and disallowed',
    });
  });

  it('never gives a run more than its parent run: its tools, its approvals, its depth', async () => {
    const parent = origin({ depth: 1, policy: buildPolicy({ allowedTools: ['Read', 'Grep'], ask: true }) });
    expect(await prepare({ task: 'x' }, parent)).toMatchObject({
      ok: true,
      request: { depth: 2, policy: { allowedTools: ['Read', 'Grep'], approvals: true } },
    });
    // an agent whose definition allows more gets only what the parent has
    expect(await prepare({ task: 'x', agent: 'reviewer', allow: ['Read', 'Bash'] }, parent)).toMatchObject({
      ok: true,
      request: { policy: { allowedTools: ['Read'], approvals: true } },
    });
    expect(await prepare({ task: 'x', allow: ['Read'], autoApprove: true }, parent)).toEqual({
      ok: false,
      error: 'INVALID_PERMISSION_CONFIG: cannot auto-approve Read: the run that starts this one asks the chat for them',
    });
    expect(await prepare({ task: 'x' }, origin({ depth: 2 }))).toEqual({
      ok: false,
      error: 'Subagents may be nested 2 deep at most, and this one would be at depth 3. Do the work yourself.',
    });
  });

  it('refuses a plan before anything runs when one of its steps could not', async () => {
    const plan = {
      strategy: 'dag' as const,
      steps: [
        { id: 'a', name: 'a', prompt: 'say:a', worktree: false, depends_on: [] },
        { id: 'b', name: 'b', prompt: 'say:b', agent: 'nobody', worktree: false, depends_on: ['a'] },
      ],
    };
    expect(await app.orchestrator.create(plan, origin())).toEqual({ ok: false, error: 'step "b": Unknown agent "nobody". Known: reviewer.' });
    // a plan made by a run carries its depth: its steps would be too deep
    const deep = await app.orchestrator.create({ ...plan, steps: [plan.steps[0]!] }, origin({ depth: 2 }));
    expect(deep).toEqual({ ok: false, error: 'step "a": Subagents may be nested 2 deep at most, and this one would be at depth 3. Do the work yourself.' });
    expect(app.orchestrator.forChat('-1')).toEqual([]);
    expect(await world.invocations()).toEqual([]);
  });

  it("runs a plan's steps at the depth and with the limits of whoever made it", async () => {
    const created = await app.orchestrator.create(
      { strategy: 'dag', steps: [{ id: 'only', name: 'only', prompt: 'say:done', worktree: false, depends_on: [] }] },
      origin({ depth: 1, policy: buildPolicy({ disallowedTools: ['Bash'] }) }),
    );
    expect(created.ok).toBe(true);
    await expect
      .poll(() => app.subagents.registry.forChat('-1')[0])
      .toMatchObject({ depth: 2, policy: { disallowedTools: ['Bash'] }, orchestration: { step: 'only' } });
    await expect.poll(() => app.orchestrator.forChat('-1')[0]?.status, { timeout: 15_000 }).toBe('completed');
  });
});
