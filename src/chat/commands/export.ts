import { chatKey, userKey } from '../../kernel/ports/chat.ts';
import { plain, type RichText } from '../../kernel/rich/index.ts';
import type { Conversation } from '../../work/transcripts/conversation.ts';
import { exportFiles } from '../../work/transcripts/export-files.ts';
import type { ShareTarget } from '../session/web-links.ts';
import { UsageError, type Command, type CommandContext } from '../dispatch/command.ts';

/**
 * /export: the chat's current session, or one of its runs, as a Markdown file (tool calls
 * folded) and a JSON file, within the chat app's upload limit; with the web server on, a
 * read-only link to it for the chat's people. `/export unshare` revokes the chat's links.
 */
export const exportCommand: Command = {
  name: 'export',
  description: "Send this chat's session, or a run, as Markdown and JSON, with a read-only link for its people",
  usage: '/export [run <#> | <#> | unshare]',
  async run(ctx) {
    const [first = '', second, ...rest] = ctx.args.trim().split(/\s+/).filter(Boolean);
    if (!first) return exportSession(ctx);
    if (first.toLowerCase() === 'unshare' && !second) return unshare(ctx);
    const ref = first.toLowerCase() === 'run' ? second : first;
    if (!ref || (first.toLowerCase() === 'run' ? rest.length : second !== undefined))
      throw new UsageError(first.toLowerCase() === 'run' ? 'Which run? Give its #number or id: /export run 3.' : `"${ctx.args.trim()}" is not a run.`);
    return exportRun(ctx, ref);
  },
};

async function exportSession(ctx: CommandContext): Promise<RichText | void> {
  const { chat, services } = ctx;
  const session = chat.record.cliSessionId;
  const key = chatKey(chat.address);
  const conversation = session ? await services.conversations.session(key, session, chat.record.cli) : undefined;
  if (!session || !conversation?.turns.length)
    return plain(
      session
        ? 'Nothing to export: the bridge kept no turn of this chat’s session.'
        : 'Nothing to export: this chat’s session has no turns yet. Send a message, then /export.',
    );
  return send(ctx, conversation, `session-${stamp()}`, { kind: 'session', chat: key, session });
}

async function exportRun(ctx: CommandContext, ref: string): Promise<RichText | void> {
  const { chat, services } = ctx;
  const key = chatKey(chat.address);
  const run = await services.review.find(key, ref);
  if (!run) throw new UsageError(`No run "${ref}" in this chat. /subagents lists them.`);
  if (run.status === 'queued') return plain(`Nothing to export: #${run.number} is queued and has not started yet.`);
  const conversation = await services.conversations.run(run);
  return send(ctx, conversation, `run-${run.number}`, { kind: 'run', chat: key, runId: run.runId });
}

async function send(ctx: CommandContext, conversation: Conversation, name: string, target: ShareTarget): Promise<RichText | void> {
  const { bot, chat, services, message } = ctx;
  const limit = bot.out.capabilities(chat.address).uploadBytes;
  const made = exportFiles(conversation, name, limit);
  if (!made.ok) return plain(`⚠️ ${conversation.title} cannot be sent here: ${made.error}`);
  const turns = `${conversation.turns.length} turn${conversation.turns.length === 1 ? '' : 's'}`;
  const caption = plain([`📤 ${conversation.title} · ${turns}`, ...(made.leftOut ? [made.leftOut] : [])].join('\n'));
  const replyTo = message.messageId !== undefined ? { replyTo: message.messageId } : {};
  const [markdown, json] = made.files;
  await bot.out.sendDocument(chat.address, { ...markdown, caption }, replyTo);
  await bot.out.sendDocument(chat.address, json, replyTo);
  const web = services.web;
  if (!web) return;
  const by = userKey(chat.address.transport, message.user);
  const { url } = await web.shareLink(target, by);
  // The address shown whole: where links show their targets (the console) a labelled link would print it twice.
  await ctx.reply(
    plain(
      `🔗 A read-only page of it for this chat’s people, for 7 days (they log in with /dashboard first):\n${url}\n/export unshare revokes this chat’s links.`,
    ),
    {
      buttons: [[{ text: '🔗 Open the read-only page', data: 'open', opens: { url } }]],
    },
  );
}

async function unshare(ctx: CommandContext): Promise<RichText> {
  const web = ctx.services.web;
  if (!web) throw new UsageError('There are no share links: the web server is off (BRIDGE_WEB_ADDR).');
  const count = await web.revokeShares(chatKey(ctx.chat.address));
  return plain(count ? `🔒 Revoked ${count} share link${count === 1 ? '' : 's'} of this chat.` : 'This chat has no share links.');
}

/** The time in a file's name: sorts, and means the same everywhere. */
function stamp(now = new Date()): string {
  return now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}
