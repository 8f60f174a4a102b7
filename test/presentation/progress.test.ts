import { describe, expect, it } from 'vitest';
import { ProgressState } from '../../src/work/presentation/progress.ts';
import { toolSummary } from '../../src/work/presentation/tool-summary.ts';
import { plainText } from '../../src/kernel/rich/index.ts';

describe('the progress of a turn', () => {
  it("names the agent a Task step hands work to, and nests that agent's steps under it", () => {
    const progress = new ProgressState('claude', 0);
    progress.apply({
      type: 'tool_start',
      id: 't1',
      name: 'Agent',
      input: { description: 'Review the change', prompt: 'Review it', subagent_type: 'reviewer' },
    });
    progress.apply({ type: 'tool_start', id: 'r1', name: 'Read', input: { file_path: 'src/a.ts' }, parentId: 't1' });
    expect(plainText(progress.render(1000)).split('\n').slice(1)).toEqual(['▸ Agent reviewer: Review the change', '   ▸ Read src/a.ts']);
  });

  it('shows a message steered into the turn among its steps, without counting it as one', () => {
    const progress = new ProgressState('claude', 0);
    progress.apply({ type: 'tool_start', id: 'b1', name: 'Bash', input: { command: 'npm test' } });
    progress.addMessage('also check   the docs');
    progress.apply({ type: 'tool_start', id: 'b2', name: 'Bash', input: { command: 'npm run lint' } });
    expect(plainText(progress.render(1000)).split('\n').slice(1)).toEqual(['▸ Bash npm test', '➕ added: also check the docs', '▸ Bash npm run lint']);
    expect(progress.stepCount).toBe(2);
  });

  it('keeps the description alone for a Task without an agent type, and the type alone without a description', () => {
    expect(toolSummary('Task', { description: 'Look around', prompt: 'Explore' })).toBe('Look around');
    expect(toolSummary('Task', { subagent_type: 'explorer' })).toBe('explorer');
  });

  it("says, while the CLI is not getting through to its model API, where that is and the CLI's own words, until the model answers", () => {
    const progress = new ProgressState('claude', 0);
    progress.modelApi = 'https://api.anthropic.com';
    progress.apply({ type: 'started', sessionId: 's' });
    expect(progress.apply({ type: 'error', message: 'API retry 3 of 10, next in 2.5 s: unknown, no HTTP answer' })).toBe(true);
    expect(plainText(progress.render(9000)).split('\n')).toEqual([
      '⚙️ claude · working · 0:09',
      '⚠️ No answer yet from claude\'s model API (https://api.anthropic.com). claude says: "API retry 3 of 10, next in 2.5 s: unknown, no HTTP answer". npm run doctor checks the way there.',
    ]);
    expect(progress.apply({ type: 'text', text: 'here I am' })).toBe(true);
    expect(plainText(progress.render(12_000))).toBe('⚙️ claude · working · 0:12');
  });
});
