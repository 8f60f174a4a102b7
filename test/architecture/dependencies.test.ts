import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: never[]; options: Record<string, unknown> };

describe('the layers of src/', () => {
  it('have no cycle between files or between folders, type imports included', async () => {
    const cwd = process.cwd();
    process.chdir(REPO); // dependency-cruiser resolves the tsconfig and paths from here
    let output: ICruiseResult;
    try {
      const result = await cruise(['src'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
      output = result.output as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
    const violations = output.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle?.length ? ` (cycle: ${v.cycle.map((step) => step.name).join(' → ')})` : ''}`,
    );
    expect(output.summary.totalCruised).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });
});
