import { lines, plain, pre } from '../../kernel/rich/index.ts';
import { chatHandoff, sessionAnswered } from '../session/handoff.ts';
import { refuseWhileBusy, UsageError, type Command } from '../dispatch/command.ts';

/**
 * /handoff [on|off]: the command that continues this chat's session in a terminal, on this
 * machine; `on` puts it under every answer. A session has one writer at a time: not while a
 * turn runs, and whatever continues it next (the terminal, or the chat) picks up the other's
 * turns.
 */
export const handoff: Command = {
  name: 'handoff',
  description: "The terminal command that continues this chat's session; on|off: under every answer",
  usage: '/handoff [on|off]',
  async run({ bot, chat, args }) {
    const wanted = args.trim().toLowerCase();
    if (wanted === 'on' || wanted === 'off') {
      await chat.set({ showHandoff: wanted === 'on' });
      return plain(
        wanted === 'on'
          ? '🖥 Every answer now ends with the command that continues the session in a terminal. /handoff off stops it.'
          : '🖥 Answers no longer show the terminal command.',
      );
    }
    if (wanted) throw new UsageError(`"${args.trim()}" is neither on nor off.`);
    if (!chat.adapter.handoff) throw new UsageError(`${chat.record.cli} cannot continue a session in a terminal.`);
    refuseWhileBusy(chat);
    const command = chatHandoff(chat, bot.config, true);
    if (!command && chat.record.cliSessionId && !sessionAnswered(chat))
      throw new UsageError(`${chat.record.cli} has not answered in this chat's session yet, so there is nothing to continue: send a message first.`);
    if (!command) throw new UsageError('This chat has no session yet: send a message first.');
    // One writer at a time: the chat's live CLI closes, and resumes the session (with the terminal's turns) on the next message.
    await chat.closeLive();
    return lines([
      '🖥 Continue this session in a terminal on the bridge’s machine:',
      pre(command),
      'Messages here continue it too, with what you did there: one of you at a time.',
    ]);
  },
  async status(chat, { bot }) {
    const command = chatHandoff(chat, bot.config);
    return command ? [['Continue in a terminal', command]] : [];
  },
};
