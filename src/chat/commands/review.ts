import {
  chatKey,
  type ButtonAnswer,
  type ButtonPress,
  type ChatRef,
  type ChatUser,
  type MessageRef,
  type RichText,
  type SendOptions,
} from '../../kernel/ports/chat.ts';
import {
  diffCaption,
  diffFilename,
  discardedText,
  discardQuestion,
  emptyDiffText,
  keptText,
  mergedText,
  refusedText,
  REVIEW,
  type ReviewPress,
} from '../../work/presentation/review.ts';
import type { Reviewer } from '../../work/subagents/run-review.ts';
import type { SubagentRunRecord } from '../../work/subagents/record.ts';
import { UsageError, type Command, type CommandContext, type CommandScope } from '../dispatch/command.ts';

/** Where a review's answers go: replies to the command, or to the message whose button was pressed. */
interface Answering {
  scope: CommandScope;
  who: Reviewer;
  reply: (text: RichText, options?: SendOptions) => Promise<MessageRef>;
  sendDiff: (document: { filename: string; content: string; caption: RichText }) => Promise<MessageRef>;
}

/** Answers in reply to message `replyTo` of the chat, for `user` (as the review service weighs them), who asked `via` a command or a button. */
function answering(scope: CommandScope, address: ChatRef, user: ChatUser, replyTo: string | undefined, via: string): Answering {
  const role = scope.bot.allowlist.roleOf(address, user);
  const { out } = scope.bot;
  return {
    scope,
    who: { transport: address.transport, userId: user.id, name: user.name, owner: role === 'owner', admin: role === 'admin', via },
    reply: (text, options) => out.send(address, text, { replyTo, ...options }),
    sendDiff: (document) => out.sendDocument(address, document, { replyTo }),
  };
}

/** The run's diff as a file, or why there is none; a short line of how it went, for a button's toast. */
async function showDiff(run: SubagentRunRecord, a: Answering): Promise<string> {
  const diff = await a.scope.services.review.diff(run);
  if (!diff.ok) {
    await a.reply(refusedText(diff));
    return 'No diff';
  }
  if (!diff.files.length) {
    await a.reply(emptyDiffText(diff));
    return 'No changes';
  }
  await a.sendDiff({ filename: diffFilename(diff), content: diff.diff, caption: diffCaption(diff) });
  return '📄 Diff sent';
}

async function mergeRun(run: SubagentRunRecord, a: Answering): Promise<string> {
  const result = await a.scope.services.review.merge(run, a.who);
  await a.reply(result.ok ? mergedText(result) : refusedText(result));
  return result.ok ? '🔀 Merged' : 'Not merged';
}

async function discardRun(run: SubagentRunRecord, a: Answering, confirmedCommits?: number): Promise<string> {
  const result = await a.scope.services.review.discard(run, a.who, confirmedCommits === undefined ? {} : { confirmedCommits });
  if (result.ok) {
    await a.reply(discardedText(result));
    return '🗑 Discarded';
  }
  if (result.refusal === 'unconfirmed') {
    const question = discardQuestion(run, result);
    await a.reply(question.text, { buttons: question.buttons });
    return 'It holds unmerged commits: confirm below';
  }
  await a.reply(refusedText(result));
  return 'Not discarded';
}

const ACTIONS = { diff: showDiff, merge: mergeRun, discard: discardRun } as const;

/** /diff, /merge and /discard: one run of this chat by its # or id (live or archived, as its worktree may wait longer than the run is listed). */
function reviewCommand(name: keyof typeof ACTIONS, description: string): Command {
  return {
    name,
    description,
    usage: `/${name} <#|id>`,
    async run(ctx: CommandContext) {
      const ref = ctx.args.trim().split(/\s+/)[0];
      if (!ref) throw new UsageError('Which run? Give its #number or id (/subagents lists them).');
      const run = await ctx.services.review.find(chatKey(ctx.chat.address), ref);
      if (!run) throw new UsageError(`No run "${ref}" in this chat. /subagents lists them.`);
      await ACTIONS[name](run, answering(ctx, ctx.chat.address, ctx.message.user, ctx.message.messageId, `/${name}`));
    },
  };
}

/**
 * A press on a run's review buttons: Diff, Merge and Discard under its announcement, and a
 * discard's confirmation (Discard N unmerged commits / Keep), whose message is then edited to
 * say what became of it.
 */
async function pressed(press: ButtonPress, payload: ReviewPress, scope: CommandScope): Promise<ButtonAnswer> {
  const run = await scope.services.review.find(chatKey(press.address), payload.runId);
  if (!run) return { text: 'No such run in this chat.' };
  const { out } = scope.bot;
  const answers = answering(scope, press.address, press.user, press.messageId, 'button');
  if (payload.action !== 'keep' && payload.action !== 'confirm') return { text: await ACTIONS[payload.action](run, answers) };
  // The question's own buttons: its message says how it ended, and offers them no more.
  if (!scope.services.review.mayChange(run, answers.who)) return { text: '⛔ Only an owner, an admin, or whoever started the run, may decide.', alert: true };
  const question: MessageRef = { ...press.address, messageId: press.messageId };
  if (payload.action !== 'confirm') {
    await out.edit(question, keptText(run), { buttons: [], urgent: true });
    return { text: 'Kept' };
  }
  const edited: Answering = {
    ...answers,
    reply: (text, options) => out.edit(question, text, { buttons: options?.buttons ?? [], urgent: true }).then(() => question),
  };
  return { text: await discardRun(run, edited, payload.commits) };
}

export const diff: Command = {
  ...reviewCommand('diff', "Send a worktree run's changes as a .diff file"),
  buttons: (on, scope) => on(REVIEW, (press, payload) => pressed(press, payload, scope)),
};
export const merge: Command = reviewCommand(
  'merge',
  "Merge a worktree run's branch into the chat's checkout (owner or the run's starter; refused on conflicts or uncommitted changes)",
);
export const discard: Command = reviewCommand(
  'discard',
  "Remove a worktree run's worktree and branch (owner or the run's starter; asks first if commits would be lost)",
);
