import { z } from 'zod';
import { runLog } from '../../presentation/runs.ts';
import { plainText } from '../../../kernel/rich/index.ts';
import { withRun } from '../runs.ts';
import { defineTool, ok } from '../tool.ts';

export const subagentLog = defineTool({
  name: 'subagent_log',
  description: 'The last steps and text of a run so far.',
  grant: 'delegate',
  input: z.strictObject({
    id: z.string().describe('Run id or #number.'),
    lines: z.number().int().min(1).max(200).describe('How many steps (default 20).').optional(),
  }),
  async run({ id, lines = 20 }, scope, deps) {
    return withRun(scope, deps, id, async (run) => ok(plainText(runLog(run, await deps.subagents.events(run), lines))));
  },
});
