import { describe, expect, it } from 'vitest';
import { importGraph } from '../support/import-graph.ts';

describe('the layers of src/', () => {
  it('have no cycle between files or between folders, type imports included', async () => {
    const output = await importGraph();
    const violations = output.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle?.length ? ` (cycle: ${v.cycle.map((step) => step.name).join(' → ')})` : ''}`,
    );
    expect(output.summary.totalCruised).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });
});
