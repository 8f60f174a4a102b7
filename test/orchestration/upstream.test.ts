import { describe, expect, it } from 'vitest';
import { promptWithUpstream } from '../../src/work/orchestration/upstream.ts';
import { fanOutFanIn, plan, step } from './support/plans.ts';

describe('promptWithUpstream', () => {
  it('leaves a step without dependencies as written', () => {
    expect(promptWithUpstream(fanOutFanIn, 'analyze', {})).toBe('do analyze');
  });

  it('puts each completed dependency’s summary before the prompt', () => {
    const named = plan('dag', [
      step('backend', [], { name: 'API server' }),
      step('docs'),
      step('frontend'),
      step('integration', ['backend', 'docs', 'frontend']),
    ]);
    const states = {
      backend: { status: 'completed' as const, summary: '  Added /users and /orders.\n' },
      docs: { status: 'completed' as const },
      frontend: { status: 'failed' as const, error: 'boom' },
    };
    expect(promptWithUpstream(named, 'integration', states)).toBe(
      [
        'Results from the steps this one depends on:',
        '',
        '=== Step "backend" (API server) ===',
        'Added /users and /orders.',
        '=== End of step "backend" ===',
        '',
        '=== Step "docs" ===',
        '(no summary)',
        '=== End of step "docs" ===',
        '',
        'Your task:',
        'do integration',
      ].join('\n'),
    );
  });

  it('cuts a long summary and says so', () => {
    const states = { analyze: { status: 'completed' as const, summary: 'x'.repeat(25) } };
    expect(promptWithUpstream(fanOutFanIn, 'docs', states, 10)).toBe(
      [
        'Results from the steps this one depends on:',
        '',
        '=== Step "analyze" ===',
        'xxxxxxxxxx',
        '[… cut: the first 10 of 25 characters]',
        '=== End of step "analyze" ===',
        '',
        'Your task:',
        'do docs',
      ].join('\n'),
    );
  });

  it('does not split an emoji where it cuts', () => {
    const states = { analyze: { status: 'completed' as const, summary: 'ab😀cd' } };
    expect(promptWithUpstream(fanOutFanIn, 'docs', states, 3)).toContain('\nab\n[… cut: the first 2 of 6 characters]\n');
  });
});
