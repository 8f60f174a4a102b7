import { z } from 'zod';
import { displayName, type SubagentRunRecord } from '../../subagents/record.ts';
import { runInfo, runList, runLog } from '../../presentation/runs.ts';
import { plainText } from '../../../kernel/rich/index.ts';
import { runsOfChat, withRun } from '../runs.ts';
import { defineTool, error, ok, type ToolDeps, type ToolResult } from '../tool.ts';

// The tools that look at and stop the runs the caller may see (see runsOfChat).

const runId = z.string().describe('Run id or #number.');

/** A tool about one run the caller may see, named by its id or #number. */
function ofRun(name: string, description: string, use: (run: SubagentRunRecord, deps: ToolDeps) => ToolResult | Promise<ToolResult>) {
  return defineTool({
    name,
    description,
    grant: 'delegate',
    input: z.strictObject({ id: runId }),
    run: ({ id }, scope, deps) => withRun(scope, deps, id, (run) => use(run, deps)),
  });
}

export const listSubagents = defineTool({
  name: 'list_subagents',
  description: 'The active and recent subagent runs of this chat.',
  grant: 'delegate',
  input: z.strictObject({}),
  async run(_args, scope, deps) {
    return ok(plainText(runList(runsOfChat(scope, deps), (run) => deps.subagents.registry.queuePosition(run))));
  },
});

export const subagentStatus = ofRun('subagent_status', "Every field of one run's record.", (run) => ok(plainText(runInfo(run))));

export const subagentLog = defineTool({
  name: 'subagent_log',
  description: 'The last steps and text of a run so far.',
  grant: 'delegate',
  input: z.strictObject({
    id: runId,
    lines: z.number().int().min(1).max(200).describe('How many steps (default 20).').optional(),
  }),
  async run({ id, lines = 20 }, scope, deps) {
    return withRun(scope, deps, id, async (run) => ok(plainText(runLog(run, await deps.subagents.events(run), lines))));
  },
});

export const stopSubagent = ofRun('stop_subagent', 'Stop a running or queued subagent run.', async (run, deps) => {
  const stopped = await deps.subagents.registry.stop(run.runId, 'the agent');
  return stopped ? ok(`Stopped #${run.number} ${displayName(run)}.`) : error(`#${run.number} has already ended (${run.status}).`);
});
