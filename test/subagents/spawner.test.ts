import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/create-app.ts';
import { buildPolicy, narrowPolicy } from '../../src/kernel/policy/tool-policy.ts';
import { Spawner, type SpawnerOptions, type SpawnIntent, type SpawnOrigin } from '../../src/work/subagents/spawner.ts';
import { AgentLibrary } from '../../src/engine/agents/library.ts';
import { AgentToggles } from '../../src/engine/agents/toggles.ts';
import { TrustedDirectories } from '../../src/engine/projects/trust.ts';
import { openApp } from '../support/app-world.ts';
import { OWNER } from '../support/telegram-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { realAdapters } from '../support/real-adapters.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat } from '../support/chats.ts';

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
  // The repository's own agents count where the owner trusts it (as /trust on would have).
  await (await TrustedDirectories.open(world.dir)).trust(world.dir, String(OWNER));
  app = await openApp(world, new RecordingOutbound(), { subagents: { maxDepth: 2 } });
});
afterEach(async () => {
  await app.shutdown();
  await world.cleanup();
});

const origin = (extra: Partial<SpawnOrigin> = {}): SpawnOrigin => ({
  address: chat(-1),
  requester: { kind: 'user', userId: '1' },
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
    // Whoever names the model (/spawn --model, the tool, the API): refused before a CLI would fail on it.
    expect(await prepare({ task: 'x', model: 'gpt\u0000x' })).toEqual({ ok: false, error: 'A model name has no control characters: "gpt\uFFFDx".' });
    expect(await prepare({ task: 'x', model: 'two words' })).toEqual({ ok: false, error: 'A model name is one word: "two words".' });
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
    expect(app.orchestrator.forChat('telegram:-1')).toEqual([]);
    expect(await world.invocations()).toEqual([]);
  });

  it("runs a plan's steps at the depth and with the limits of whoever made it", async () => {
    const created = await app.orchestrator.create(
      { strategy: 'dag', steps: [{ id: 'only', name: 'only', prompt: 'say:done', worktree: false, depends_on: [] }] },
      origin({ depth: 1, policy: buildPolicy({ disallowedTools: ['Bash'] }) }),
    );
    expect(created.ok).toBe(true);
    await expect
      .poll(() => app.subagents.registry.forChat('telegram:-1')[0])
      .toMatchObject({ depth: 2, policy: { disallowedTools: ['Bash'] }, orchestration: { step: 'only' } });
    await expect.poll(() => app.orchestrator.forChat('telegram:-1')[0]?.status, { timeout: 15_000 }).toBe('completed');
  });

  it("auto-approves only a list that comes from the person asking or the operator, never from the project's agent", async () => {
    expect(await prepare({ task: 'x', agent: 'reviewer', autoApprove: true })).toEqual({
      ok: false,
      error: `INVALID_PERMISSION_CONFIG: auto-approval needs --allow: the tools of agent "reviewer" come from the project (${join(world.dir, '.bridge', 'agents', 'reviewer', 'agent.json')}), not from you or the operator.`,
    });
    expect(await prepare({ task: 'x', agent: 'reviewer', autoApprove: true, allow: ['Read'] })).toMatchObject({
      ok: true,
      request: { policy: { autoApprove: { tools: ['Read'] } } },
    });
    const operator = join(world.dir, 'agents', 'auditor');
    await mkdir(operator, { recursive: true });
    await writeFile(join(operator, 'agent.json'), JSON.stringify({ description: 'Audits', allowedTools: ['Read'] }));
    await writeFile(join(operator, 'prompt.md'), 'You audit.\n');
    expect(await prepare({ task: 'x', agent: 'auditor', autoApprove: true })).toMatchObject({
      ok: true,
      request: { policy: { autoApprove: { tools: ['Read'] } } },
    });
  });
});

/** A Spawner over the real adapters, the chat's mode given (none: bypass), in a trusted directory. */
const spawnerOn = async (extra: Partial<SpawnerOptions> = {}) =>
  new Spawner({
    registry: undefined as never,
    adapters: await realAdapters(),
    agents: new AgentLibrary({
      dataDir: world.dir,
      knownClis: ['claude', 'codex', 'droid'],
      toggles: await AgentToggles.open(world.dir),
      trusts: async () => true,
    }),
    limits: { maxDepth: 2, timeoutSeconds: 60 },
    trusts: async () => true,
    ...extra,
  });

describe('runs started by agents on other CLIs', () => {
  const spawner = () => spawnerOn();
  const byAgent = (cli: string, extra: Partial<SpawnOrigin> = {}): SpawnOrigin =>
    origin({ requester: { kind: 'agent', chatKey: 'telegram:-1' }, cli, ...extra });

  it('a claude run started from a codex sandbox asks the chat instead of bypassing permissions', async () => {
    const s = await spawner();
    expect(await s.prepare({ task: 'x', cli: 'claude' }, byAgent('codex'))).toMatchObject({
      ok: true,
      request: { cli: 'claude', policy: { approvals: true } },
    });
    // a sandbox for a sandbox, and less for more, need nothing
    const codex = await s.prepare({ task: 'x', cli: 'codex' }, byAgent('codex'));
    expect(codex.ok && codex.request.policy).toBeUndefined();
    const fromClaude = await s.prepare({ task: 'x', cli: 'codex' }, byAgent('claude'));
    expect(fromClaude.ok && fromClaude.request.policy).toBeUndefined();
    // a person may start what they like: they could switch the chat's CLI themselves
    const byPerson = await s.prepare({ task: 'x', cli: 'claude' }, origin({ cli: 'codex' }));
    expect(byPerson.ok && byPerson.request.policy).toBeUndefined();
  });

  it('a run that must ask, on a CLI that cannot, is refused', async () => {
    const s = await spawner();
    expect(await s.prepare({ task: 'x', cli: 'codex' }, byAgent('claude', { depth: 1, policy: buildPolicy({ ask: true }) }))).toEqual({
      ok: false,
      error: 'codex cannot ask the chat for approvals (its adapter has no permission-prompt tool).',
    });
  });
});

describe("a chat's permission mode", () => {
  const inMode = (mode: 'safe' | 'ask') => spawnerOn({ chatMode: () => mode });
  const claude = () => origin({ cli: 'claude' });

  it('safe: the run only reads, keeping what it forbids, and no option lifts it', async () => {
    const spawner = await inMode('safe');
    const looking = await spawner.prepare({ task: 'look', deny: ['Bash'] }, claude());
    expect(looking).toEqual({
      ok: true,
      request: expect.objectContaining({ chatMode: 'safe', policy: { disallowedTools: ['Bash'], approvals: false, readOnly: true } }),
    });
    // A run that only reads never trusts the repository, though its directory is trusted.
    expect(looking.ok && looking.request.trusted).toBeUndefined();
    const lifts: [Partial<SpawnIntent>, string][] = [
      [{ autoApprove: true, allow: ['Bash'] }, '--auto-approve, --allow'],
      [{ ask: true }, '--ask'],
      [{ allow: ['Read'] }, '--allow'],
    ];
    for (const [intent, named] of lifts) {
      expect(await spawner.prepare({ task: 'write', ...intent }, claude())).toEqual({
        ok: false,
        error: `This chat is in safe mode: its runs only read, and ${named} cannot change that. /permissions changes the chat's mode.`,
      });
    }
  });

  it('ask: the run asks the chat, with auto-approval of an allowlist as before; a CLI that cannot ask only reads', async () => {
    const spawner = await inMode('ask');
    expect(await spawner.prepare({ task: 'work' }, claude())).toEqual({
      ok: true,
      request: expect.objectContaining({ chatMode: 'ask', policy: { approvals: true }, trusted: true }),
    });
    const auto = await spawner.prepare({ task: 'work', allow: ['Bash(echo:*)'], autoApprove: true }, claude());
    expect(auto.ok && auto.request.policy).toMatchObject({ approvals: true, allowedTools: ['Bash(echo:*)'], autoApprove: { tools: ['Bash(echo:*)'] } });
    expect(await spawner.prepare({ task: 'work' }, origin({ cli: 'codex' }))).toEqual({
      ok: true,
      request: expect.objectContaining({ chatMode: 'safe', policy: { approvals: false, readOnly: true } }),
    });
  });

  it("an origin's own mode (a webhook's) binds as well: the stricter of it and the chat's", async () => {
    const bypassChat = await spawnerOn({ chatMode: () => 'bypass' });
    const safeHook = await bypassChat.prepare({ task: 'look' }, { ...claude(), mode: 'safe' });
    expect(safeHook).toEqual({ ok: true, request: expect.objectContaining({ chatMode: 'safe', policy: { approvals: false, readOnly: true } }) });
    expect(safeHook.ok && safeHook.request.trusted).toBeUndefined();
    expect(await bypassChat.prepare({ task: 'work' }, { ...claude(), mode: 'ask' })).toEqual({
      ok: true,
      request: expect.objectContaining({ chatMode: 'ask', policy: { approvals: true } }),
    });
    // A looser origin gives nothing beyond the chat's mode.
    expect(await (await inMode('safe')).prepare({ task: 'look' }, { ...claude(), mode: 'bypass' })).toEqual({
      ok: true,
      request: expect.objectContaining({ chatMode: 'safe' }),
    });
  });

  it('a run started by a read-only run is read-only too', () => {
    expect(narrowPolicy({ approvals: false, readOnly: true }, buildPolicy({ allowedTools: ['Bash'] }))).toEqual({
      readOnly: true,
      allowedTools: ['Bash'],
      approvals: false,
    });
  });
});
