import { BUSY_MODE_MEANING, BUSY_MODES, isBusyMode } from '../../kernel/policy/busy-mode.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { UsageError, type Command } from '../dispatch/command.ts';

/** `/busy [steer|queue|interrupt]`: what a message sent while this chat's agent works does. */
export const busy: Command = {
  name: 'busy',
  description: 'Show or set what a message does while the agent works: steer, queue or interrupt',
  usage: '/busy [steer|queue|interrupt]',
  // Anyone may see the chat's busy mode; its admins change it.
  access: (args) => (args.trim() ? 'admin' : 'member'),
  async run({ chat, args }) {
    const wanted = args.trim().toLowerCase();
    if (!wanted) return plain(`${describeBusy(chat)}\nChange it with /busy ${BUSY_MODES.join('|')}.`);
    if (!isBusyMode(wanted)) throw new UsageError(`Unknown busy mode "${wanted}": ${BUSY_MODES.join(', ')}.`);
    await chat.set({ busyMode: wanted });
    return plain(describeBusy(chat));
  },
  async status(chat) {
    return [['While the agent works', `${chat.busyMode} (/busy)`]];
  },
};

function describeBusy(chat: ChatSession): string {
  const mode = chat.busyMode;
  const lines = [`📨 Busy mode: ${mode}${chat.record.busyMode ? '' : " (the bridge's default)"}: ${BUSY_MODE_MEANING[mode]}.`];
  if (mode === 'steer' && !chat.agent.steerable) lines.push(`${chat.record.cli} cannot take a message while it works, so messages wait for the next turn.`);
  if (mode === 'steer') lines.push("In a group, only the person whose message started the turn steers it; others' messages wait.");
  return lines.join('\n');
}
