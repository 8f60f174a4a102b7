import { basename } from 'node:path';
import { z } from 'zod';
import { outgoingFile } from '../../../engine/files/outgoing.ts';
import { megabytes } from '../../../engine/files/sizes.ts';
import { displayName } from '../../subagents/record.ts';
import { plain } from '../../../kernel/rich/index.ts';
import { callerRun } from '../runs.ts';
import { defineTool, error, ok } from '../tool.ts';

/** A file from the caller's own directory (a run's worktree, a chat's working directory) to its chat. */
export const sendFile = defineTool({
  name: 'send_file',
  description:
    "Send a file to the user's chat: a photo when it is an image, otherwise a document. Use it to show what you made (a chart, a screenshot, a patch, a build). The path is inside your working directory, relative to it or absolute; at most 50 MB.",
  grant: 'everyone',
  input: z.strictObject({
    path: z.string().min(1).describe('The file, inside your working directory.'),
    caption: z.string().max(1000).describe('A line shown with the file.').optional(),
  }),
  async run({ path: wanted, caption: written }, scope, deps) {
    const caller = callerRun(scope, deps);
    const dir = caller ? (caller.worktree?.workdir ?? caller.cwd) : deps.chatDefaults(scope.address).cwd;
    const file = await outgoingFile(dir, wanted, [dir], deps.out.capabilities(scope.address), deps.dataDir);
    if (!file.ok) return error(`Not sent: ${file.error}`);
    const caption = written?.trim() || undefined;
    const who = caller ? `#${caller.number} ${displayName(caller)}` : undefined;
    const shown = [who && `${who}:`, caption].filter(Boolean).join(' ');
    try {
      await deps.out.sendFile(scope.address, { path: file.path, content: file.content, as: file.as, ...(shown ? { caption: plain(shown) } : {}) });
    } catch (caught) {
      return error(`Not sent: the chat refused it (${(caught as Error).message}).`);
    } finally {
      await file.close();
    }
    return ok(`Sent ${basename(file.path)} (${megabytes(file.bytes)}) to the chat as a ${file.as}.`);
  },
});
