import { describe, expect, it } from 'vitest';
import type { OrchestrationRecord } from '../../src/work/orchestration/orchestration-record.ts';
import { graphSvg } from '../../src/services/pictures/graph-svg.ts';
import { orchestrationGraph, orchestrationSummary } from '../../src/work/presentation/orchestration.ts';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { fanOutFanIn, step } from '../orchestration/support/plans.ts';

// An orchestration as the graph its picture (and the dashboard) draws.
function record(steps: OrchestrationRecord['steps'], extra: Partial<OrchestrationRecord> = {}): OrchestrationRecord {
  return {
    id: 'orch1',
    number: 3,
    chatKey: 'telegram:1',
    chat: { transport: 'telegram', chat: '1' },
    requester: { kind: 'user', userId: '1', name: 'Ada' },
    origin: { cwd: '/tmp', cli: 'claude', depth: 0 },
    plan: { ...fanOutFanIn, name: 'Release' },
    steps,
    status: 'running',
    createdAt: 0,
    ...extra,
  };
}

const run = (runId: string, number: number, extra: Partial<SubagentRunRecord> = {}) => ({ runId, number, status: 'running', ...extra }) as SubagentRunRecord;

describe('an orchestration as a graph', () => {
  it('has a node per step in its state, with its run and how long it ran once it ended, and an edge per dependency', () => {
    const runs = new Map([
      ['r1', run('r1', 1, { status: 'completed', startedAt: 1000, endedAt: 63_000 })],
      ['r2', run('r2', 2, { startedAt: 64_000 })],
      ['r3', run('r3', 3, { status: 'queued' })],
      ['r4', run('r4', 4, { status: 'failed', startedAt: 64_000, endedAt: 65_000 })],
    ]);
    const graph = orchestrationGraph(
      record({
        analyze: { status: 'completed', runId: 'r1', attempts: 1 },
        backend: { status: 'running', runId: 'r2', attempts: 1 },
        frontend: { status: 'running', runId: 'r3', attempts: 1 },
        docs: { status: 'failed', runId: 'r4', attempts: 1, error: 'crashed' },
        integration: { status: 'failed', attempts: 0, error: 'dependency "docs" failed' },
      }),
      (id) => runs.get(id),
    );
    expect(graph.title).toBe('#3 Release · 1/5 done, 2 failed');
    expect(graph.nodes).toEqual([
      { id: 'analyze', label: 'analyze', state: 'done', detail: '#1 · 1:02' },
      { id: 'backend', label: 'backend', state: 'running', detail: '#2' },
      { id: 'frontend', label: 'frontend', state: 'running', detail: '#3 · queued' },
      { id: 'docs', label: 'docs', state: 'failed', detail: '#4 · 0:01' },
      { id: 'integration', label: 'integration', state: 'failed' },
    ]);
    expect(graph.edges).toEqual([
      { from: 'analyze', to: 'backend' },
      { from: 'analyze', to: 'frontend' },
      { from: 'analyze', to: 'docs' },
      { from: 'backend', to: 'integration' },
      { from: 'frontend', to: 'integration' },
      { from: 'docs', to: 'integration' },
    ]);
  });

  it('names a step by its name, shows pending, skipped and stopped steps, and says how it ended', () => {
    const orchestration = record(
      { a: { status: 'stopped', attempts: 1 }, b: { status: 'skipped', attempts: 0 }, c: { status: 'pending', attempts: 0 } },
      { plan: { strategy: 'dag', steps: [step('a', [], { name: 'Analyze <all>' }), step('b', ['a']), step('c')] }, status: 'stopped' },
    );
    const graph = orchestrationGraph(orchestration);
    expect(graph.nodes.map((n) => [n.label, n.state])).toEqual([
      ['Analyze <all>', 'stopped'],
      ['b', 'skipped'],
      ['c', 'waiting'],
    ]);
    expect(orchestrationSummary(orchestration)).toBe('#3 Orchestration #3 · 0/3 done · stopped');
    // The dashboard's SVG: a node per step, found by its id and state.
    const svg = graphSvg(graph);
    expect(svg).toContain('<g data-node="a" data-state="stopped"');
    expect(svg).toContain('>Analyze &lt;all&gt;</text>');
  });

  it('does not change while a step runs: the picture changes only when a step does', () => {
    const runs = new Map([['r1', run('r1', 1, { startedAt: 0 })]]);
    const orchestration = record({ analyze: { status: 'running', runId: 'r1', attempts: 1 } });
    const at = (now: number) => graphSvg(orchestrationGraph({ ...orchestration, createdAt: now }, (id) => runs.get(id)));
    expect(at(1000)).toBe(at(90_000));
  });
});
