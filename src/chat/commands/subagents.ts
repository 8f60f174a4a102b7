import { plain } from '../../kernel/rich/index.ts';
import { runInfo, runList, runLog, STOP_RUN, stoppingRunText } from '../../work/presentation/runs.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import { displayName, isActive, type SubagentRunRecord } from '../../work/subagents/record.ts';
import { askerId } from '../../work/approvals/asker.ts';
import { messageKey, UsageError, type Command, type CommandContext } from '../dispatch/command.ts';

/** Who did it, for a run's record. */
const who = (ctx: { message: { user: { id: string; name?: string } } }) => ctx.message.user.name ?? ctx.message.user.id;

/** /subagents: list and manage this chat's runs; the runs' Stop buttons; and /stop and /status reaching them. */
export const subagents: Command = {
  name: 'subagents',
  description: 'List and manage subagent runs',
  usage: '/subagents [list | stop <id|#|all> | log <id|#> [n] | info <id|#> | send <id|#> <message> | revoke <id|#>]',
  startsWork: (args) => /^\s*send\b/i.test(args),
  effectOf: (key, args, { services: { subagents } }) => {
    if (!/^\s*send\b/i.test(args)) return undefined;
    // Noted on the run before it was handed over: not there, it never was, and it is sent again.
    const run = subagents.registry.heard(key);
    if (!run) return { kind: 'none' };
    return {
      kind: 'unknown',
      said: `the message had been handed to #${run.number} ${displayName(run)}, which may not have read it before the restart. /subagents log ${run.number} shows what it did; send it again if it missed it.`,
    };
  },
  async run(ctx) {
    const [sub = 'list', ref, extra] = ctx.args.trim().split(/\s+/).filter(Boolean);
    const { subagents, approvals } = ctx.services;
    const { registry } = subagents;
    const key = chatKey(ctx.chat.address);
    switch (sub.toLowerCase()) {
      case 'list':
        return runList(registry.forChat(key), (run) => registry.queuePosition(run));
      case 'stop': {
        if (!ref) throw new UsageError('Which run? Give its #number or id, or "all".');
        if (ref === 'all') {
          const count = await registry.stopAll(key, who(ctx));
          return plain(count ? `⏹ Stopped ${count} subagent${count === 1 ? '' : 's'}.` : 'No subagent is running or queued.');
        }
        const run = findRun(ctx, ref);
        if (!(await registry.stop(run.runId, who(ctx)))) throw new UsageError(`#${run.number} has already ended (${run.status}).`);
        return stoppingRunText(run);
      }
      case 'log': {
        const count = extra ? Number(extra) : 15;
        if (!Number.isInteger(count) || count < 1 || count > 200) throw new UsageError('The number of steps is a whole number from 1 to 200.');
        const run = findRun(ctx, ref);
        return runLog(run, await subagents.events(run), count);
      }
      case 'info': {
        const run = findRun(ctx, ref);
        const waiting = approvals.waitingFor(askerId.run(run.runId));
        return runInfo(run, {
          ...(run.status === 'queued' ? { queuePosition: registry.queuePosition(run) } : {}),
          ...(waiting ? { approvalsWaiting: waiting } : {}),
          // An ended run carries its counts; a live one's are kept by the audit log as they come.
          ...(run.auditCounts ? {} : { auditCounts: subagents.audit.countsFor(run.runId) }),
        });
      }
      case 'send': {
        if (!ref) throw new UsageError('Which run? Give its #number or id, then the message.');
        const text = ctx.args.trim().replace(/^\S+\s+\S+\s*/, '');
        if (!text) throw new UsageError(`What should #${ref.replace(/^#/, '')} hear? Put the message after its number.`);
        const run = findRun(ctx, ref);
        const sent = await registry.send(run.runId, text, who(ctx), messageKey(ctx.message));
        if (!sent.ok) throw new UsageError(sent.error);
        const how = {
          live: 'has it now: it reads it while it works',
          next_turn: 'gets it as its next turn, right after the current one',
          worker: 'gets it on its worker: while it works where its CLI reads messages, else as its next turn',
        }[sent.delivery.via];
        return plain(`✉️ #${run.number} ${displayName(run)} ${how}; its reply is announced here.`);
      }
      case 'revoke': {
        const run = findRun(ctx, ref);
        if (!(await registry.revokeAutoApprove(run.runId, who(ctx)))) throw new UsageError(`#${run.number} has no auto-approval to revoke.`);
        return plain(`🔒 Auto-approval revoked for #${run.number} ${displayName(run)}: its next tool calls are asked here.`);
      }
      default:
        throw new UsageError(`Unknown subcommand "${sub}".`);
    }
  },
  buttons(on, { services: { subagents } }) {
    on(STOP_RUN, async (press, runId) => {
      const run = subagents.registry.get(runId);
      if (!run || run.requesterKey !== chatKey(press.address)) return { text: 'No such run in this chat.' };
      const stopped = await subagents.registry.stop(runId, press.user.name ?? String(press.user.id));
      return { text: stopped ? `⏹ Stopping #${run.number}…` : `#${run.number} has already ended.` };
    });
  },
  async stop(chat, reason, { services: { subagents } }, onlyOf) {
    const key = chatKey(chat.address);
    const count = await subagents.registry.stopAll(key, reason.replace(/^stopped by /, ''), onlyOf);
    const others = onlyOf === undefined ? 0 : subagents.registry.forChat(key).filter(isActive).length;
    const said = [
      count ? `⏹ Stopped ${count} subagent${count === 1 ? '' : 's'}${onlyOf ? ' of yours' : ''}.` : '',
      others ? `${others} subagent${others === 1 ? '' : 's'} of others go${others === 1 ? 'es' : ''} on: an admin's /stop stops them.` : '',
    ];
    return said.filter(Boolean).join(' ') || undefined;
  },
  async status(chat, { services: { subagents } }) {
    const { registry } = subagents;
    const runs = registry.forChat(chatKey(chat.address));
    const running = runs.filter((r) => r.status === 'running').length;
    const queued = runs.filter((r) => r.status === 'queued').length;
    const where = await registry.describeExecution().catch((error: Error) => `unknown (${error.message})`);
    return [
      ['Subagents', `${running} running, ${queued} queued (limit ${registry.limits.maxConcurrent} running)`],
      ['Subagents run', where],
    ];
  },
};

function findRun(ctx: CommandContext, ref: string | undefined): SubagentRunRecord {
  if (!ref) throw new UsageError('Which run? Give its #number or id.');
  const run = ctx.services.subagents.registry.find(chatKey(ctx.chat.address), ref);
  if (!run) throw new UsageError(`No run "${ref}" in this chat. /subagents lists them.`);
  return run;
}
