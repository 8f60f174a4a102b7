import { z } from 'zod';
import { runList } from '../../presentation/runs.ts';
import { plainText } from '../../../kernel/rich/index.ts';
import { runsOfChat } from '../runs.ts';
import { defineTool, ok } from '../tool.ts';

export const listSubagents = defineTool({
  name: 'list_subagents',
  description: 'The active and recent subagent runs of this chat.',
  grant: 'delegate',
  input: z.strictObject({}),
  async run(_args, scope, deps) {
    return ok(plainText(runList(runsOfChat(scope, deps), (run) => deps.subagents.registry.queuePosition(run))));
  },
});
