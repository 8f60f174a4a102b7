import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { agentJson, makeWorkspace, type Workspace } from './workspace.ts';

let ws: Workspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('loadAgents sources', () => {
  it('is empty, without problems, when no folder exists', async () => {
    const catalog = await ws.load();
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems).toEqual([]);
    expect(catalog.notes).toEqual([]);
    expect(catalog.get('anything')).toBeUndefined();
  });

  it('loads a workdir folder agent with every field and prompt.md', async () => {
    const file = await ws.write(
      'project/.bridge/agents/reviewer/agent.json',
      agentJson({
        name: 'Code reviewer',
        description: 'Reviews diffs',
        model: 'opus',
        cli: 'claude',
        allowedTools: ['Read', 'Grep'],
        disallowedTools: ['Bash'],
        maxTurns: 12,
        enabled: true,
      }),
    );
    await ws.write('project/.bridge/agents/reviewer/prompt.md', '\nYou review code.\n\n');
    const catalog = await ws.load();
    expect(catalog.problems).toEqual([]);
    expect(catalog.agents).toEqual([
      {
        slug: 'reviewer',
        name: 'Code reviewer',
        description: 'Reviews diffs',
        prompt: 'You review code.',
        model: 'opus',
        cli: 'claude',
        allowedTools: ['Read', 'Grep'],
        disallowedTools: ['Bash'],
        maxTurns: 12,
        enabled: true,
        source: 'workdir',
        file,
      },
    ]);
  });

  it('loads a Claude Code agent', async () => {
    const file = await ws.write('project/.claude/agents/Tester.md', '---\nname: tester\ndescription: Writes tests\n---\nYou write tests.\n');
    const catalog = await ws.load();
    expect(catalog.problems).toEqual([]);
    expect(catalog.agents).toEqual([
      { slug: 'tester', name: 'tester', description: 'Writes tests', prompt: 'You write tests.', enabled: true, source: 'claude', file },
    ]);
  });

  it('loads a user-wide agent with the prompt in agent.json and the name defaulting to the slug', async () => {
    const file = await ws.write('data/agents/helper/agent.json', agentJson({ description: 'Helps', prompt: 'Be helpful.' }));
    const catalog = await ws.load();
    expect(catalog.problems).toEqual([]);
    expect(catalog.agents).toEqual([{ slug: 'helper', name: 'helper', description: 'Helps', prompt: 'Be helpful.', enabled: true, source: 'user', file }]);
  });

  it("lets the operator's agents hide the project's, and workdir hide claude, with a note for each hidden one", async () => {
    const work = await ws.write('project/.bridge/agents/reviewer/agent.json', agentJson({ description: 'workdir', prompt: 'p' }));
    const claude = await ws.write('project/.claude/agents/reviewer.md', '---\ndescription: claude\n---\np\n');
    const user = await ws.write('data/agents/reviewer/agent.json', agentJson({ description: 'user', prompt: 'p' }));
    await ws.write('project/.claude/agents/planner.md', '---\ndescription: claude planner\n---\np\n');
    const userPlanner = await ws.write('data/agents/planner/agent.json', agentJson({ description: 'user planner', prompt: 'p' }));
    await ws.write('data/agents/alone/agent.json', agentJson({ description: 'user alone', prompt: 'p' }));

    const catalog = await ws.load();
    expect(catalog.problems).toEqual([]);
    expect(catalog.agents.map((a) => [a.slug, a.description, a.source])).toEqual([
      ['alone', 'user alone', 'user'],
      ['planner', 'user planner', 'user'],
      ['reviewer', 'user', 'user'],
    ]);
    expect(catalog.notes).toEqual([
      `agent "reviewer": ${work} is hidden by ${user}`,
      `agent "planner": ${join(ws.workdir, '.claude/agents/planner.md')} is hidden by ${userPlanner}`,
      `agent "reviewer": ${claude} is hidden by ${user}`,
    ]);
    // without the operator's, the project's own order holds: .bridge/agents before .claude/agents
    await ws.write('project/.bridge/agents/tester/agent.json', agentJson({ description: 'workdir tester', prompt: 'p' }));
    await ws.write('project/.claude/agents/tester.md', '---\ndescription: claude tester\n---\np\n');
    expect((await ws.load()).get('tester')?.description).toBe('workdir tester');
  });

  it('lets a broken definition still hide a lower one, so the wrong agent never runs', async () => {
    const user = await ws.write('data/agents/reviewer/agent.json', agentJson({ prompt: 'p' }));
    const work = await ws.write('project/.bridge/agents/reviewer/agent.json', agentJson({ description: 'workdir', prompt: 'p' }));
    const catalog = await ws.load();
    expect(catalog.get('reviewer')).toBeUndefined();
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems).toEqual([{ file: user, field: 'description', message: 'required' }]);
    expect(catalog.notes).toEqual([`agent "reviewer": ${work} is hidden by ${user} (which has problems)`]);
  });

  it('loads disabled agents, marked, and finds them with get', async () => {
    await ws.write('project/.bridge/agents/off/agent.json', agentJson({ description: 'd', prompt: 'p', enabled: false }));
    await ws.write('project/.claude/agents/also-off.md', '---\ndescription: d\nenabled: false\n---\np\n');
    await ws.write('project/.bridge/agents/on/agent.json', agentJson({ description: 'd', prompt: 'p' }));
    const catalog = await ws.load();
    expect(catalog.agents.map((a) => [a.slug, a.enabled])).toEqual([
      ['also-off', false],
      ['off', false],
      ['on', true],
    ]);
    expect(catalog.get('off')?.enabled).toBe(false);
  });

  it('passes over loose files and hidden entries in folder sources', async () => {
    await ws.write('project/.bridge/agents/README.md', '# my agents\n');
    await ws.write('project/.bridge/agents/.git/agent.json', '{');
    await ws.write('project/.claude/agents/.draft.md', 'broken');
    await ws.write('project/.claude/agents/notes.txt', 'not an agent');
    const catalog = await ws.load();
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems).toEqual([]);
  });

  it('loads dozens of agents quickly', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        ws.write(`project/.bridge/agents/a${String(i).padStart(2, '0')}/agent.json`, agentJson({ description: `d${i}`, prompt: 'p' })),
      ),
    );
    const started = performance.now();
    const catalog = await ws.load();
    expect(performance.now() - started).toBeLessThan(500);
    expect(catalog.agents).toHaveLength(60);
    expect(catalog.agents[0]?.slug).toBe('a00');
    expect(catalog.agents[59]?.slug).toBe('a59');
  });
});
