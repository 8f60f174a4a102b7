import { plain } from '../../presentation/deliver.ts';
import { orchestrationList } from '../../presentation/orchestration.ts';
import { chatKey } from '../../ports/transport.ts';
import { orchestrationName } from '../../orchestration/orchestration-record.ts';
import type { Orchestrator } from '../../orchestration/orchestrator.ts';
import { parsePlan, PlanError } from '../../orchestration/index.ts';
import type { Bridge } from '../bridge.ts';
import { UsageError, type CommandHandler } from './command.ts';

/** /orchestrate <plan>, /orchestrations [list | stop <#|id>], and /stop and /status reaching them. */
export function installOrchestrationCommands(bridge: Bridge, orchestrator: Orchestrator): void {
  const orchestrate: CommandHandler = async (ctx) => {
    if (!ctx.args.trim()) throw new UsageError('Give the plan after the command: JSON, or one step a line ("id <- deps: prompt").');
    let plan;
    try {
      plan = parsePlan(ctx.args);
    } catch (error) {
      if (error instanceof PlanError) throw new UsageError(`The plan was not started: ${error.message}`);
      throw error;
    }
    const user = ctx.message.user;
    const created = await orchestrator.create(plan, {
      address: ctx.chat.address,
      requester: { kind: 'user', userId: user.id, ...(user.name ? { name: user.name } : {}) },
      cwd: ctx.chat.record.workdir,
      cli: ctx.chat.record.cli,
      depth: 0,
    });
    if (!created.ok) throw new UsageError(`The plan was not started: ${created.error}`);
  };

  const orchestrations: CommandHandler = async (ctx) => {
    const [sub = 'list', ref] = ctx.args.trim().split(/\s+/).filter(Boolean);
    const key = chatKey(ctx.chat.address);
    if (sub === 'list') {
      await ctx.reply(orchestrationList(orchestrator.forChat(key)));
      return;
    }
    if (sub !== 'stop') throw new UsageError(`Unknown subcommand "${sub}".`);
    if (!ref) throw new UsageError('Which orchestration? Give its #number or id.');
    const found = orchestrator.find(key, ref);
    if (!found) throw new UsageError(`No orchestration "${ref}" in this chat.`);
    if (!(await orchestrator.stop(found.id, ctx.message.user.name ?? String(ctx.message.user.id))))
      throw new UsageError(`#${found.number} has already ended (${found.status}).`);
    await ctx.reply(plain(`⏹ Stopping orchestration #${found.number} ${orchestrationName(found)}.`));
  };

  bridge.command('orchestrate', orchestrate);
  bridge.command('orchestrations', orchestrations);
  // Before the subagents' own hook: steps are stopped as part of their orchestration.
  bridge.onStop(async (chat, reason) => {
    const count = await orchestrator.stopAll(chatKey(chat.address), reason.replace(/^stopped by /, ''));
    return count ? `⏹ Stopped ${count} orchestration${count === 1 ? '' : 's'}.` : undefined;
  });
  bridge.onStatus(async (chat) => {
    const running = orchestrator.forChat(chatKey(chat.address)).filter((o) => o.status === 'running').length;
    return running ? [['Orchestrations', `${running} running`]] : [];
  });
}
