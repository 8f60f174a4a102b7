import { spawnedText, stopButton } from '../../work/presentation/runs.ts';
import { plain } from '../../kernel/rich/index.ts';
import { parseSpawnArgs, SpawnArgsError } from '../../work/subagents/spawn-args.ts';
import { DownloadError } from '../../engine/files/inbox.ts';
import { promptWithFiles } from '../../engine/files/prompt.ts';
import { commandOrigin, parsed, UsageError, type Command, type CommandContext } from '../dispatch/command.ts';

/** /spawn [options] "task": a background subagent, with the files sent before it and the replied-to message as its context. */
export const spawn: Command = {
  name: 'spawn',
  description: 'Start a background subagent',
  usage:
    '/spawn [--label L] [--cli C] [--model M] [--agent A] [--timeout S] [--budget USD] [--allow T,T] [--deny T,T] [--ask] [--auto-approve] [--worktree] "task"',
  startsWork: true,
  // Its run keeps the message that asked for it: cut short before it made one, it is carried out again.
  effectOf: (key, _args, { services }) => ({ kind: services.subagents.registry.madeFrom(key) ? 'done' : 'none' }),
  async run(ctx) {
    const args = parsed(SpawnArgsError, () => parseSpawnArgs(ctx.args));
    const context = [ctx.message.replyTo?.text, await filesFor(ctx)].filter(Boolean).join('\n\n');
    const result = await ctx.services.subagents.spawner.spawn({ ...args, ...(context ? { context } : {}) }, commandOrigin(ctx));
    // Its CLI cannot work (no credentials): the one line that says so and how to fix it, not the usage.
    if (!result.ok && result.refusal === 'unavailable') return plain(`❌ ${result.error}`);
    if (!result.ok) throw new UsageError(result.error);
    await ctx.reply(spawnedText(result.run, result.queuePosition), { buttons: [[stopButton(result.run)]] });
  },
};

/**
 * The files a /spawn gives its run: those the user sent before it and the ones of the message
 * it replies to, by absolute path (a run in a worktree does not see the chat's inbox).
 */
async function filesFor(ctx: CommandContext): Promise<string> {
  const files = await ctx.bot.attachments.take(ctx.chat, ctx.message.user.id);
  const replied = ctx.message.replyTo?.attachments;
  if (replied?.length) {
    try {
      files.push(...(await ctx.bot.attachments.save(ctx.chat, replied)));
    } catch (error) {
      if (error instanceof DownloadError) throw new UsageError(`The file you replied to could not be received: ${error.message}; ${error.advice}.`);
      throw error;
    }
  }
  return promptWithFiles('', files, undefined);
}
