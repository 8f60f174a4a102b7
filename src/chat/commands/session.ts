import { userKey } from '../../kernel/ports/chat.ts';
import { modelNameProblem, unsupportedOption } from '../../engine/adapters/turn-options.ts';
import { unsupportedMode } from '../../engine/adapters/permissions.ts';
import { bold, code, lines, plain, rich } from '../../kernel/rich/index.ts';
import { formatDuration } from '../../work/presentation/progress.ts';
import { UsageError, type Command, refuseWhileBusy } from '../dispatch/command.ts';
import { describeMode } from './permissions.ts';
import { healthRows } from './health.ts';
import type { ChatSession } from '../session/chat-session.ts';

export const newSession: Command = {
  name: 'new',
  description: 'Start a fresh agent session in this chat',
  usage: '/new',
  async run({ chat }) {
    refuseWhileBusy(chat);
    await chat.reset();
    return plain(`🆕 Fresh ${chat.record.cli} session: the next message starts a new conversation.`);
  },
};

export const stop: Command = {
  name: 'stop',
  description: "Stop the running turn and this chat's subagents (a member's: their own)",
  usage: '/stop',
  /** Stops the chat's turn, its queue, and whatever the commands' stop hooks own (runs, orchestrations). */
  async run({ bot, services, chat, message }) {
    // A member stops the turn, and of the chat's work only their own; an admin or an owner, all of it.
    const member = bot.allowlist.roleOf(chat.address, message.user) === 'member';
    const onlyOf = member ? userKey(chat.address.transport, message.user) : undefined;
    const reason = `stopped by ${message.user.name ?? message.user.id} (/stop)`;
    const { running, dropped } = await chat.stop(reason);
    const turn = running ? '⏹ Stopped the turn; the session goes on with your next message.' : 'No turn was running.';
    const lines = [`${turn}${dropped ? ` Dropped ${dropped} waiting message${dropped === 1 ? '' : 's'}.` : ''}`];
    for (const command of bot.commands) {
      const line = await command.stop?.(chat, reason, { bot, services }, onlyOf);
      if (line) lines.push(line);
    }
    return plain(lines.join('\n'));
  },
};

/** Whether the chat's CLI stays up between turns, and is up now. */
function processState(chat: ChatSession): string {
  const { agent } = chat;
  if (!agent.runsLive) return `one per turn (${chat.record.cli} takes no message while it works)`;
  if (!agent.hasLiveProcess) return 'kept between turns; starts with the next message';
  const where = agent.liveWhere ? `, on worker ${agent.liveWhere}` : '';
  return chat.current ? `kept between turns, working${where}` : `kept between turns, idle for ${formatDuration(Date.now() - agent.liveLastUsed)}${where}`;
}

export const status: Command = {
  name: 'status',
  description: 'Session, CLI, model, working directory, queue',
  usage: '/status',
  async run({ bot, chat, services }) {
    const { record } = chat;
    const running = chat.current ? `running for ${formatDuration(Date.now() - chat.current.startedAt)}` : 'idle';
    const rows: [string, string][] = [
      ['CLI', `${record.cli} (${chat.adapter.description || chat.adapter.resolvedCommand})`],
      ['Model', record.model ?? 'the CLI default'],
      ['Session', record.cliSessionId ?? 'new (starts with the next message)'],
      ['Working directory', record.workdir],
      [
        'Permissions',
        chat.effectivePermissionMode === chat.permissionMode
          ? chat.permissionMode
          : `${chat.permissionMode} (runs ${chat.effectivePermissionMode}: ${chat.adapter.name} cannot ask)`,
      ],
      ['Turn', running],
      ['CLI process', processState(chat)],
      ['Queued messages', String(chat.queued)],
      ...(await Promise.all(bot.commands.map(async (command) => (await command.status?.(chat, { bot, services })) ?? []))).flat(),
      ...(await healthRows(bot, services.health)),
    ];
    return lines([bold('Status'), ...rows.map(([k, v]) => rich`${k}: ${code(v)}`)]);
  },
};

export const cli: Command = {
  name: 'cli',
  description: "Switch this chat's CLI",
  usage: '/cli <name>',
  async run({ bot, chat, args }) {
    const names = [...bot.config.adapters.keys()];
    const wanted = args.trim().toLowerCase();
    if (!wanted) return plain(`This chat uses ${chat.record.cli}. Available: ${names.join(', ')}. Switch with /cli <name>.`);
    if (!bot.config.adapters.has(wanted)) throw new UsageError(`Unknown CLI "${wanted}". Available: ${names.join(', ')}.`);
    const unsupported = unsupportedMode(bot.config.adapters.get(wanted)!, chat.permissionMode);
    if (unsupported) throw new UsageError(`${unsupported}: this chat's permission mode is ${chat.permissionMode} (/permissions).`);
    refuseWhileBusy(chat);
    if (wanted === chat.record.cli) return plain(`Already using ${wanted}.`);
    await chat.change({ cli: wanted, model: undefined });
    // A CLI that cannot ask runs read-only in an asking chat: say so at the switch, not at the first refusal.
    const note = chat.effectivePermissionMode === chat.permissionMode ? '' : `\n${describeMode(chat)}`;
    return plain(`🔀 Switched to ${wanted}. The next message starts a fresh ${wanted} session.${note}`);
  },
};

export const model: Command = {
  name: 'model',
  description: "Choose the model for this chat (none: the CLI's default)",
  usage: '/model [name|default]',
  async run({ chat, args }) {
    const wanted = args.trim();
    if (!wanted) return plain(`Model: ${chat.record.model ?? 'the CLI default'}. Change it with /model <name>, or /model default.`);
    const problem = modelNameProblem(wanted);
    if (problem) throw new UsageError(`${problem}.`);
    const unsupported = unsupportedOption(chat.adapter, { model: wanted });
    if (unsupported) throw new UsageError(`${unsupported}.`);
    refuseWhileBusy(chat);
    const next = wanted === 'default' ? undefined : wanted;
    await chat.change({ model: next });
    return plain(`🧠 Model: ${next ?? 'the CLI default'}, from the next message on; the conversation continues.`);
  },
};
