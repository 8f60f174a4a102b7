import { chatKey } from '../../kernel/ports/chat.ts';
import type { TrustedDirectories, TrustEntry } from '../../engine/projects/trust.ts';
import { plain } from '../../kernel/rich/index.ts';
import { displayPath } from '../../work/presentation/paths.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { UsageError, type Command } from '../dispatch/command.ts';

/** What a repository ships that a CLI uses only where the owner trusts it. */
const SHIPPED = 'the settings, hooks and MCP servers it ships (.claude/settings.json, .mcp.json, …) and its own agents';

/**
 * /trust [on|off]: whether the chat's directory is trusted, and (the owner only) trusting it,
 * with everything below it, for every chat, or withdrawing that. Read before each turn and
 * each spawn, so a change counts from the next message on, and the conversation continues.
 */
export const trust: Command = {
  name: 'trust',
  description: "Whether the settings, hooks, MCP servers and agents this chat's directory ships are used; the owner may trust it, and everything below it",
  usage: '/trust [on|off]',
  // Anyone may ask; only the owner decides.
  access: (args) => (args.trim() ? 'owner' : 'member'),
  async run({ bot, services, chat, args, message }) {
    const { trust, audit } = services;
    const wanted = args.trim().toLowerCase();
    const dir = chat.record.workdir;
    if (!wanted) return plain(`${await describeTrust(chat, trust)}${bot.allowlist.isOwner(chat.address, message.user) ? '\n/trust on|off changes it.' : ''}`);
    if (wanted !== 'on' && wanted !== 'off') throw new UsageError(`"${args.trim()}" is neither on nor off.`);
    if (wanted === 'on') {
      const { entry, added } = await trust.trust(dir, String(message.user.id));
      if (added) void audit.record({ event: 'trust', chat: chatKey(chat.address), by: String(message.user.id), detail: entry.path });
      const lines = [
        added
          ? `🛡 Trusted ${displayPath(entry.path)} and everything below it, for every chat: from the next message on, its CLI uses ${SHIPPED}. Trust only what you would run yourself; /trust off undoes it.`
          : `🛡 Already trusted: ${covers(entry, dir)}.`,
      ];
      if (chat.effectivePermissionMode === 'safe') lines.push('This chat is in safe mode, which never trusts a repository.');
      return plain(lines.join('\n'));
    }
    const removed = await trust.withdraw(dir);
    if (removed) void audit.record({ event: 'untrust', chat: chatKey(chat.address), by: String(message.user.id), detail: removed.path });
    return plain(
      removed
        ? `🛡 ${displayPath(removed.path)} is no longer trusted${removed.path === dir ? '' : ` (it covered ${displayPath(dir)})`}: from the next message on, its CLI ignores ${SHIPPED}.`
        : `${displayPath(dir)} was not trusted.`,
    );
  },
  async status(chat, { services }) {
    const dir = chat.record.workdir;
    const entry = await services.trust.covering(dir);
    if (!entry) return [['Trust', "not trusted: the repository's own settings, hooks, MCP servers and agents are ignored"]];
    return [['Trust', `trusted (${covers(entry, dir)})${chat.effectivePermissionMode === 'safe' ? ', but ignored in safe mode' : ''}`]];
  },
};

async function describeTrust(chat: ChatSession, trust: TrustedDirectories): Promise<string> {
  const dir = chat.record.workdir;
  const entry = await trust.covering(dir);
  if (!entry) return `🛡 ${displayPath(dir)} is not trusted: its CLI ignores ${SHIPPED}; only the operator's agents count.`;
  const lines = [`🛡 Trusted: ${covers(entry, dir)}. Its CLI uses ${SHIPPED}.`];
  if (chat.effectivePermissionMode === 'safe') lines.push('This chat is in safe mode, which never trusts: they are ignored here.');
  return lines.join('\n');
}

function covers(entry: TrustEntry, dir: string): string {
  const since = new Date(entry.at).toISOString().slice(0, 10);
  return entry.path === dir ? `${displayPath(dir)}, since ${since}` : `${displayPath(entry.path)} and everything below it, since ${since}`;
}
