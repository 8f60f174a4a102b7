import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { outgoingFile, resolveTarget, zipDirectory } from '../../files/outgoing.ts';
import { UsageError, type CommandHandler } from './command.ts';

/** `/file get <path>`: a file from the chat's working directory (or anywhere in the project roots), a directory zipped. */
export const file: CommandHandler = async ({ bridge, chat, args, message }) => {
  const [, sub, rest] = /^\s*(\S*)\s*(.*)$/s.exec(args) ?? [];
  const wanted = (rest ?? '').trim().replace(/^(["'])(.*)\1$/s, '$2');
  if (sub?.toLowerCase() !== 'get' || !wanted) throw new UsageError('Say which file: /file get <path>, relative to this chat’s directory.');
  const { projectRoots, dataDir } = bridge.config;
  const target = await resolveTarget(chat.record.workdir, wanted, projectRoots, dataDir);
  if (!target.ok) throw new UsageError(target.error);
  const sent = target.directory
    ? await zipDirectory(target.path, join(dataDir, 'tmp'), undefined, dataDir)
    : await outgoingFile(chat.record.workdir, wanted, projectRoots, dataDir);
  if (!sent.ok) throw new UsageError(sent.error);
  try {
    await bridge.out.sendFile(
      chat.address,
      { path: sent.path, as: sent.as, ...(target.directory ? { filename: `${basename(target.path)}.zip` } : {}) },
      { ...(message.messageId !== undefined ? { replyTo: message.messageId } : {}) },
    );
  } finally {
    if (target.directory) await rm(sent.path, { force: true });
  }
};
