import { orchestrationList, stoppingOrchestrationText } from '../../work/presentation/orchestration.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import { parsePlan } from '../../work/orchestration/parse.ts';
import { PlanError } from '../../work/orchestration/plan.ts';
import { commandOrigin, parsed, UsageError, type Command } from '../dispatch/command.ts';

/** /orchestrate <plan>: validated, then run in the background; its outcome is announced. */
export const orchestrate: Command = {
  name: 'orchestrate',
  description: 'Run a plan of subagent steps with dependencies',
  usage: '/orchestrate <plan: JSON, or one step a line: id <- deps: prompt>',
  startsWork: true,
  // Its record keeps the message that asked for it: cut short before it was made, it is carried out again.
  effectOf: (key, _args, { services }) => ({ kind: services.orchestrator.madeFrom(key) ? 'done' : 'none' }),
  async run(ctx) {
    if (!ctx.args.trim()) throw new UsageError('Give the plan after the command: JSON, or one step a line ("id <- deps: prompt").');
    const plan = parsed(PlanError, () => parsePlan(ctx.args), 'The plan was not started: ');
    // Its progress message answers the command, as /spawn's start does.
    const created = await ctx.services.orchestrator.create(plan, commandOrigin(ctx), ctx.message.messageId);
    if (!created.ok) throw new UsageError(`The plan was not started: ${created.error}`);
  },
};

/** /orchestrations [list | stop <#|id>], and /stop and /status reaching them. */
export const orchestrations: Command = {
  name: 'orchestrations',
  description: "List or stop this chat's orchestrations",
  usage: '/orchestrations [list | stop <#|id>]',
  async run(ctx) {
    const { orchestrator } = ctx.services;
    const [sub = 'list', ref] = ctx.args.trim().split(/\s+/).filter(Boolean);
    const key = chatKey(ctx.chat.address);
    if (sub === 'list') return orchestrationList(orchestrator.forChat(key));
    if (sub !== 'stop') throw new UsageError(`Unknown subcommand "${sub}".`);
    if (!ref) throw new UsageError('Which orchestration? Give its #number or id.');
    const found = orchestrator.find(key, ref);
    if (!found) throw new UsageError(`No orchestration "${ref}" in this chat.`);
    if (!(await orchestrator.stop(found.id, ctx.message.user.name ?? String(ctx.message.user.id))))
      throw new UsageError(`#${found.number} has already ended (${found.status}).`);
    return stoppingOrchestrationText(found);
  },
  // Listed before /subagents: steps are stopped as part of their orchestration.
  async stop(chat, reason, { services }, onlyOf) {
    // A plan is the chat's: a member's /stop leaves it to an admin.
    if (onlyOf !== undefined) {
      const running = services.orchestrator.forChat(chatKey(chat.address)).filter((o) => o.status === 'running').length;
      return running ? `${running} orchestration${running === 1 ? '' : 's'} go${running === 1 ? 'es' : ''} on: an admin's /stop stops them.` : undefined;
    }
    const count = await services.orchestrator.stopAll(chatKey(chat.address), reason.replace(/^stopped by /, ''));
    return count ? `⏹ Stopped ${count} orchestration${count === 1 ? '' : 's'}.` : undefined;
  },
  async status(chat, { services }) {
    const running = services.orchestrator.forChat(chatKey(chat.address)).filter((o) => o.status === 'running').length;
    return running ? [['Orchestrations', `${running} running`]] : [];
  },
};
