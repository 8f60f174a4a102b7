import { code, plain, rich } from '../../kernel/rich/index.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { UsageError, type Command, type CommandContext } from './command.ts';
import { runWithDeadline } from './deadline.ts';

/**
 * Runs a command within its deadline: past it the command's signal is aborted, the chat is
 * told, and the chat's next message is answered (the transport handles a chat's messages one
 * after another, so a command that never ended would silence the chat). What it returns is
 * its answer; a wrong use is answered with its message and the command's usage.
 */
export async function runCommand(
  command: Command,
  { timeoutSeconds, context, log }: { timeoutSeconds: number; context: (signal: AbortSignal) => CommandContext; log: Log },
): Promise<void> {
  const controller = new AbortController();
  const ctx = context(controller.signal);
  const { name } = command;
  const ended = await runWithDeadline(
    async () => {
      try {
        const answer = await command.run(ctx);
        if (answer) await ctx.reply(answer);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        const usage = ctx.usage;
        await ctx.reply(rich`⚠️ ${error.message}\nUsage: ${code(usage)}`);
      }
    },
    timeoutSeconds * 1000,
    controller,
    // Whatever the stopped command still does is its own affair: a failure after its deadline is only logged.
    (error) => log.warn({ err: error }, `/${name} failed after its deadline`),
  );
  if (ended === 'done') return;
  log.warn(`/${name} passed its ${timeoutSeconds} s deadline and was stopped`);
  await ctx.reply(plain(`⌛ /${name} took longer than ${timeoutSeconds} s and was stopped. The chat goes on: try again, or ask for something smaller.`));
}
