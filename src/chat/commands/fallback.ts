import { clockTime } from '../../engine/fallback/limit-words.ts';
import { parseChain, writeChain } from '../../engine/fallback/chain.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { UsageError, type Command } from '../dispatch/command.ts';

/**
 * `/fallback [claude>codex|off|default]`: the CLIs this chat's turns go on in when a quota or
 * rate limit stops theirs, in order. Anyone may see it (and which CLIs are limited now); the
 * chat's admins change it.
 */
export const fallback: Command = {
  name: 'fallback',
  description: 'Show or set the CLIs that take over when a quota or rate limit stops the agent',
  usage: '/fallback [claude>codex>droid|off|default]',
  access: (args) => (args.trim() ? 'admin' : 'member'),
  async run({ chat, args }) {
    const wanted = args.trim().toLowerCase();
    if (!wanted) return plain(`${describeFallback(chat)}\nChange it with /fallback ${chat.knownClis.join('>')}, /fallback off, or /fallback default.`);
    if (wanted === 'off' || wanted === 'default') {
      await chat.set({ fallback: wanted === 'off' ? 'off' : undefined });
      return plain(describeFallback(chat));
    }
    const parsed = parseChain(wanted, chat.knownClis);
    if ('problem' in parsed) throw new UsageError(`${parsed.problem[0]!.toUpperCase()}${parsed.problem.slice(1)}.`);
    await chat.set({ fallback: [...parsed.chain] });
    return plain(describeFallback(chat));
  },
  async status(chat) {
    const chain = chat.fallbackChain;
    return [['When a limit stops the agent', chain ? `${writeChain(chain)} (/fallback)` : 'it waits (/fallback)']];
  },
};

function describeFallback(chat: ChatSession): string {
  const chain = chat.fallbackChain;
  const whose = chat.record.fallback === undefined ? " (the bridge's default, BRIDGE_FALLBACK)" : '';
  const lines = [
    chain
      ? `↪️ Fallback: ${writeChain(chain)}${whose}: when a quota or rate limit stops a turn, the next CLI goes on with it, told what was done so far; the first returns once its limit resets.`
      : `↪️ Fallback: off${whose}: when a quota or rate limit stops a turn, the chat is told when it can go on.`,
  ];
  const now = Date.now();
  for (const [cli, limit] of Object.entries(chat.record.limited ?? {})) {
    if (limit.until > now) lines.push(`${cli} is limited until about ${clockTime(limit.until, now)}.`);
  }
  const home = chat.record.home;
  if (home && home.cli !== chat.record.cli) lines.push(`${chat.record.cli} works here for now; ${home.cli} takes the session back once its limit resets.`);
  return lines.join('\n');
}
