import { z } from 'zod';
import { askerOf } from '../runs.ts';
import { defineTool, ok } from '../tool.ts';

/** Claude Code's `--permission-prompt-tool`: its call carries more than these, and the answer is JSON text. */
export const approveTool = defineTool({
  name: 'approve_tool',
  description:
    "Permission prompt for a subagent's CLI (Claude Code's --permission-prompt-tool): asks the chat, or applies the run's auto-approval policy. Offered only to runs whose tool calls need approval.",
  grant: 'approve',
  input: z.looseObject({
    tool_name: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
    tool_use_id: z.string().optional(),
  }),
  async run({ tool_name, input }, scope, deps) {
    const asker = askerOf(scope, deps);
    if (!asker) return ok(JSON.stringify({ behavior: 'deny', message: 'This run is no longer known to the bridge.' }));
    return ok(JSON.stringify(await deps.approvals.decide(asker, tool_name, input)));
  },
});

/** Its name, as the approval broker recognises the bridge's own prompt among a CLI's tools. */
export const APPROVAL_TOOL = approveTool.name;
