import { z } from 'zod';
import { displayName } from '../../subagents/record.ts';
import { withRun } from '../runs.ts';
import { defineTool, error, ok } from '../tool.ts';

export const stopSubagent = defineTool({
  name: 'stop_subagent',
  description: 'Stop a running or queued subagent run.',
  grant: 'delegate',
  input: z.strictObject({ id: z.string().describe('Run id or #number.') }),
  async run({ id }, scope, deps) {
    return withRun(scope, deps, id, async (run) => {
      const stopped = await deps.subagents.registry.stop(run.runId, 'the agent');
      return stopped ? ok(`Stopped #${run.number} ${displayName(run)}.`) : error(`#${run.number} has already ended (${run.status}).`);
    });
  },
});
