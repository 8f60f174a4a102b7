import { z } from 'zod';
import { displayName } from '../../subagents/record.ts';
import { origin } from '../runs.ts';
import { defineTool, error, ok } from '../tool.ts';

export const spawnSubagent = defineTool({
  name: 'spawn_subagent',
  description:
    'Start a background subagent: a separate agent run that works on the task in parallel. Returns at once with the run id; the result arrives later by itself as a new message in this conversation.',
  grant: 'delegate',
  input: z.strictObject({
    task: z.string().min(1).describe('Everything the subagent needs to know: it does not see this conversation.'),
    label: z.string().max(60).describe('A short name shown in the chat.').optional(),
    cli: z.string().describe("Which coding-agent CLI runs it (default: the bridge's default).").optional(),
    model: z.string().describe("Model for the run (default: the CLI's).").optional(),
    agent: z.string().describe('A user-defined agent to run as.').optional(),
    timeoutSeconds: z.number().int().min(10).max(86400).describe('Stop the run after this long.').optional(),
    budgetUsd: z.number().positive().max(10000).describe('Stop the run once it has cost this many US dollars (the bridge prices it as it works).').optional(),
    worktree: z.boolean().describe('Run in a fresh git worktree on its own branch, so parallel runs do not share files.').optional(),
  }),
  async run({ worktree, ...intent }, scope, deps) {
    const result = await deps.subagents.spawner.spawn({ ...intent, ...(worktree ? { worktree: true } : {}) }, origin(scope, deps));
    if (!result.ok) return error(result.error);
    deps.notice(result.run, result.queuePosition);
    const { run } = result;
    const where = result.queuePosition ? `queued (${result.queuePosition} in line; it starts when a slot frees)` : 'started';
    const back =
      scope.kind === 'main' && run.delivery.agent === 'pending'
        ? ' Its result will arrive by itself as a new message in this conversation: do not wait or poll for it; go on with other work or end your turn.'
        : ' Its result will be announced in the chat.';
    return ok(`Subagent #${run.number} ${where}: id ${run.runId}, label "${displayName(run)}", CLI ${run.cli}.${back}`);
  },
});
