import type { Standing } from '../../work/access/chat-people.ts';
import { personLabel } from '../../work/access/people-seen.ts';
import type { Command, CommandContext } from '../dispatch/command.ts';
import { covers } from '../people/roles.ts';
import { timeAgo } from '../../work/presentation/relative-time.ts';
import { chatKey, userKey } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';

/** A person named in /allow or /deny, or why nobody could be. */
type Named = { person: string; name?: string } | { problem: string };

/**
 * Whom `/allow …` or `/deny …` names, on this chat's transport: the author of the message it
 * replies to; a mention (`<@U024BE7LH>`, `<@81384788765712384>`); an id, bare or as
 * `transport:id`; or a name the bridge has seen (not every chat app can look a name up).
 */
export function whomNamed(ctx: Pick<CommandContext, 'args' | 'message' | 'chat' | 'services'>, command: 'allow' | 'deny'): Named {
  const { transport } = ctx.chat.address;
  const written = ctx.args.trim();
  const replied = ctx.message.replyTo;
  if (!written) {
    if (replied?.fromId) return { person: `${transport}:${replied.fromId}`, ...(replied.from ? { name: replied.from } : {}) };
    return { problem: 'Name someone: reply to one of their messages, or give their id or the name they write under.' };
  }
  const mention = /^<@!?([A-Z0-9]+|\d+)(?:\|([^>]*))?>$/i.exec(written);
  if (mention) return { person: `${transport}:${mention[1]}`, ...(mention[2] ? { name: mention[2] } : {}) };
  const qualified = /^([a-z][a-z0-9-]*):(\S+)$/.exec(written);
  if (qualified) {
    if (qualified[1] !== transport) return { problem: `${written} is someone of ${qualified[1]}; this chat is on ${transport}.` };
    return { person: written };
  }
  // Numbers, user ids (U…), 26-character ids, directory object ids (GUIDs) and ids naming their server (@alice:example.org) are ids as they are written.
  if (/^(\d{3,}|[UW][A-Z0-9]{6,}|[a-z0-9]{26}|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|@[^\s:]+:\S+)$/i.test(written))
    return { person: `${transport}:${written}` };
  const found = ctx.services.seen.named(ctx.chat.address, written);
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    return { problem: `Several people go by “${written}”: ${found.map((p) => personLabel(p.person, p.name)).join(', ')}. Give the id of the one you mean.` };
  return {
    problem: `I haven't seen anyone called “${written}” write here since I started. Reply to one of their messages with /${command}, or give their id (the refusal they got shows it).`,
  };
}

/** What /allow or /deny did, in a line. */
async function decide(ctx: CommandContext, is: Standing['is']): Promise<string> {
  const { bot, services, chat, message } = ctx;
  // Changing who may use the bridge here: a group's or a channel's admins; a private chat has no one to allow.
  if (message.private) return 'This chat is its person’s alone: /allow and /deny name people in groups and channels.';
  if (!ctx.args.trim() && !message.replyTo?.fromId) return peopleList(ctx);
  const named = whomNamed(ctx, is === 'allowed' ? 'allow' : 'deny');
  if ('problem' in named) return named.problem;
  const { person } = named;
  const name = named.name ?? services.seen.nameOf(person);
  const label = personLabel(person, name);
  const who = { id: person.slice(person.indexOf(':') + 1), identity: person };
  const me = userKey(chat.address.transport, message.user);
  const theirRole = bot.allowlist.roleOf(chat.address, who);
  if (theirRole === 'owner') return `${label} is an owner: always allowed, in every chat.`;
  if (is === 'denied') {
    if (person === me) return 'You cannot deny yourself.';
    if (!covers(bot.allowlist.roleOf(chat.address, message.user), 'owner') && theirRole === 'admin')
      return `⛔ ${label} is an admin: only an owner may deny them here.`;
  }
  const before = await services.people.set(chat.address, person, { is, name, by: me, byName: message.user.name || undefined, at: Date.now() });
  void services.audit.record({
    event: is === 'allowed' ? 'allow' : 'deny',
    chat: chatKey(chat.address),
    by: personLabel(me, message.user.name),
    detail: label,
  });
  const turnsToo = bot.config.groupTurns === 'allowed' ? ', and start the agent’s work' : '';
  return is === 'allowed'
    ? `✅ ${label} may use the bridge in this chat${turnsToo}${before?.is === 'denied' ? ': no longer denied' : ''}.`
    : `⛔ ${label} is denied in this chat: their messages and presses here are refused${before?.is === 'allowed' ? ', and their /allow is withdrawn' : ''}. Their runs here go on: /subagents stop ends one.`;
}

/** What was said of people in this chat, and what holds for everyone else. */
function peopleList(ctx: CommandContext): string {
  const { bot, services, chat } = ctx;
  const said = services.people.list(chat.address);
  const turns =
    bot.config.groupTurns === 'allowed'
      ? 'Only the people named here, the admins and the owners start the agent’s work in this group (BRIDGE_GROUP_TURNS=allowed); everyone else allowed may use the commands that only look.'
      : 'Everyone allowed here starts turns (BRIDGE_GROUP_TURNS=everyone).';
  const lines = said.map(
    (s) => `${s.is === 'allowed' ? '✅' : '⛔'} ${personLabel(s.person, s.name)} · ${s.is} by ${s.byName ?? s.by}, ${timeAgo(Date.now() - s.at)}`,
  );
  return [
    'People of this chat',
    ...(lines.length ? lines : ['Nobody named yet: BRIDGE_ALLOWED_USERS, BRIDGE_ADMINS and BRIDGE_OWNERS decide.']),
    '',
    `People of BRIDGE_ALLOWED_USERS may use the bridge here unless denied. ${turns}`,
    'Name someone: /allow or /deny in reply to their message, or with their id or name.',
  ].join('\n');
}

/** /allow and /deny: what a chat's admins say of someone there. */
function standingCommand(name: 'allow' | 'deny', is: Standing['is'], description: string): Command {
  const usage = `/${name} [<id | name>, or in reply to their message]`;
  return { name, description, usage, access: 'admin', run: async (ctx) => plain(await decide(ctx, is)) };
}

export const allowCommand = standingCommand('allow', 'allowed', 'Let someone use the bridge in this chat (admins)');
export const deny = standingCommand('deny', 'denied', 'Keep someone from using the bridge in this chat (admins)');
