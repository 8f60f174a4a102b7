import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: never[]; options: Record<string, unknown> };

/** src/'s import graph, checked against the tiers' rules (`.dependency-cruiser.cjs`): what the architecture test and `npm run bench -- layout` read. */
export async function importGraph(): Promise<ICruiseResult> {
  const cwd = process.cwd();
  process.chdir(REPO); // dependency-cruiser resolves the tsconfig and paths from here
  try {
    const result = await cruise(['src'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
    return result.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}
