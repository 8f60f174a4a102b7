import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { outgoingFile, resolveTarget, zipDirectory } from '../../engine/files/outgoing.ts';
import { plain } from '../../kernel/rich/index.ts';
import { UsageError, type Command } from '../dispatch/command.ts';

/** `/file get <path>`: a file from the chat's working directory (or anywhere in the project roots), a directory zipped. */
export const file: Command = {
  name: 'file',
  description: "Send a file, or a directory zipped, from this chat's working directory",
  usage: '/file get <path>',
  // Zipping a large directory may rightly take longer than a command.
  timeoutSeconds: (settings) => settings.fileTransferTimeoutSeconds,
  async run({ bot, chat, args, message, signal }) {
    const [, sub, rest] = /^\s*(\S*)\s*(.*)$/s.exec(args) ?? [];
    const wanted = (rest ?? '').trim().replace(/^(["'])(.*)\1$/s, '$2');
    if (sub?.toLowerCase() !== 'get' || !wanted) throw new UsageError('Say which file: /file get <path>, relative to this chat’s directory.');
    const { projectRoots, dataDir } = bot.config;
    const limits = bot.out.capabilities(chat.address);
    const target = await resolveTarget(chat.record.workdir, wanted, projectRoots, dataDir);
    if (!target.ok) throw new UsageError(target.error);
    const sent = target.directory
      ? await zipDirectory(target.path, join(dataDir, 'tmp'), { limit: limits.uploadBytes, signal, dataDir })
      : await outgoingFile(chat.record.workdir, wanted, projectRoots, limits, dataDir);
    if (!sent.ok) throw new UsageError(sent.error);
    try {
      signal.throwIfAborted();
      const caption = sent.skipped?.length ? plain(leftOut(sent.skipped)) : undefined;
      await bot.out.sendFile(
        chat.address,
        {
          path: sent.path,
          content: sent.content,
          as: sent.as,
          ...(target.directory ? { filename: `${basename(target.path)}.zip` } : {}),
          ...(caption ? { caption } : {}),
        },
        { replyTo: message.messageId },
      );
    } finally {
      await sent.close();
      if (target.directory) await rm(sent.path, { force: true });
    }
  },
};

/** A zip's caption naming what it left out (pipes, sockets, devices, links leading outside), within a caption's length. */
function leftOut(skipped: readonly string[]): string {
  const shown = skipped.slice(0, 12).map((line) => `• ${line}`);
  const more = skipped.length > shown.length ? `\n…and ${skipped.length - shown.length} more` : '';
  return `Left out of the zip (${skipped.length}):\n${shown.join('\n')}${more}`.slice(0, 1000);
}
