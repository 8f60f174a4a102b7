import { chatKey } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { isIP } from 'node:net';
import { coveredBy, formatHostRule, parseHostRule, type HostRule } from '../../engine/sandbox/host-rules.ts';
import { isInternal } from '../../engine/sandbox/internal-addresses.ts';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { parsed, UsageError, type Command, type CommandHost } from '../dispatch/command.ts';

/**
 * `/net [list] | allow HOST… | deny HOST…`: the hosts this chat's sandbox may reach besides
 * its model API and BRIDGE_SANDBOX_ALLOW. Anyone may see them; the chat's admins change them,
 * and a change counts from the CLI's next connection on (the running turn included).
 */
export const net: Command = {
  name: 'net',
  description: "Show the hosts this chat's sandboxed agent may reach; admins allow or deny one (host, host:port or *.domain)",
  usage: '/net [list] | /net allow <host>… | /net deny <host>…',
  access: (args) => (/^(allow|deny)\b/i.test(args.trim()) ? 'admin' : 'member'),
  async run({ bot, services, chat, args, message }) {
    const [verb = 'list', ...words] = args.trim().split(/\s+/).filter(Boolean);
    const action = verb.toLowerCase();
    if (action === 'list') return plain(describeNet(chat, bot));
    if (action !== 'allow' && action !== 'deny') throw new UsageError(`"${verb}" is none of list, allow or deny.`);
    if (!words.length) throw new UsageError(`Name a host to ${action}: example.com, example.com:8443 or *.example.com.`);
    const hosts = words.map((word) => parsed(ConfigError, () => formatHostRule(parseHostRule(word.replace(/,$/, ''), `/net ${action}`))));
    const before = chat.record.netAllow ?? [];
    const after = action === 'allow' ? [...before, ...hosts.filter((host) => !before.includes(host))] : before.filter((host) => !hosts.includes(host));
    const unknown = action === 'deny' ? hosts.filter((host) => !before.includes(host)) : [];
    await chat.set({ netAllow: after });
    void services.audit.record({ event: 'net', chat: chatKey(chat.address), by: String(message.user.id), detail: `${action} ${hosts.join(' ')}` });
    const closed = action === 'allow' ? hosts.filter((host) => unopened(parseHostRule(host, '/net'), bot)) : [];
    const said =
      action === 'allow'
        ? `🌐 This chat's agent may now reach ${hosts.join(', ')}.${closed.length ? ` (${closed.join(', ')}: internal, so reached only where the operator opens it, in BRIDGE_SANDBOX_INTERNAL.)` : ''}`
        : `🌐 This chat's agent may no longer reach ${hosts.filter((host) => !unknown.includes(host)).join(', ') || 'them'}.${unknown.length ? ` (${unknown.join(', ')} ${unknown.length === 1 ? 'was' : 'were'} not on the chat's list.)` : ''}`;
    return plain(`${said}\n${describeNet(chat, bot)}`);
  },
  async status(chat, { bot }) {
    if (!bot.config.sandbox.decision.on) return [];
    const own = chat.record.netAllow ?? [];
    return [['Network', own.length ? `model API, BRIDGE_SANDBOX_ALLOW and ${own.join(', ')} (/net)` : 'model API and BRIDGE_SANDBOX_ALLOW only (/net)']];
  },
};

/** An internal address or range that no address of the operator's opens (one for any port: on every port): a chat's list alone never reaches it. */
function unopened(rule: HostRule, bot: CommandHost): boolean {
  const { allow, internal } = bot.config.sandbox;
  return isIP(rule.host) !== 0 && isInternal(rule.host) && !coveredBy([...allow, ...internal], rule.host, rule.port ?? 0);
}

function describeNet(chat: ChatSession, bot: CommandHost): string {
  const { decision, allow } = bot.config.sandbox;
  const own = chat.record.netAllow ?? [];
  const lines = [
    `Besides its model API, this chat's agent may reach: ${own.length ? own.join(', ') : 'no host of its own'}${allow.length ? `; every chat's: ${allow.map(formatHostRule).join(', ')} (BRIDGE_SANDBOX_ALLOW)` : ''}.`,
  ];
  if (!decision.on) lines.push(`The sandbox is off here, so nothing is enforced: ${decision.why}.`);
  return lines.join('\n');
}
