import { z } from 'zod';
import { runInfo } from '../../presentation/runs.ts';
import { plainText } from '../../../kernel/rich/index.ts';
import { withRun } from '../runs.ts';
import { defineTool, ok } from '../tool.ts';

export const subagentStatus = defineTool({
  name: 'subagent_status',
  description: "Every field of one run's record.",
  grant: 'delegate',
  input: z.strictObject({ id: z.string().describe('Run id or #number.') }),
  async run({ id }, scope, deps) {
    return withRun(scope, deps, id, (run) => ok(plainText(runInfo(run))));
  },
});
