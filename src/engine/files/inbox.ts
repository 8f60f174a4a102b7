import { constants } from 'node:fs';
import { lstat, open, readdir, realpath, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { handToAgent, projectFolderMode } from '../process/agent-space.ts';
import { nanoid } from 'nanoid';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { megabytes } from './sizes.ts';
import { safeFileName } from './safe-name.ts';
import { containedDir, OutsideError } from './contained.ts';
import { holdFolder } from './agent-place.ts';
import { every } from '../../kernel/concurrency/periodic.ts';
import type { Log } from '../../kernel/log/logger.ts';

/** Where files sent to a chat are kept, under its working directory. */
export const INBOX_DIR = join('.bridge', 'inbox');

/** A file a user sent, now on disk: what its attachment said of it, where it is, and its size. */
export type SavedFile = Pick<Attachment, 'kind' | 'recorded' | 'mimeType' | 'durationSeconds'> & { path: string; bytes: number };

/** A download that failed: the file it was, and why, in a sentence for the chat. */
export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    readonly attachment: Attachment,
    message: string,
    /** What the user can do about it. */
    readonly advice = 'send it again, or as a smaller file',
  ) {
    super(message);
  }
}

/** Names for what a transport sends without one: a photo or a voice note has no file name. */
const DEFAULT_NAMES: Record<Attachment['kind'], string> = {
  document: 'document',
  photo: 'photo.jpg',
  voice: 'voice.oga',
  audio: 'audio',
  video: 'video.mp4',
};

/** What the user can do when the inbox's folder leads out of the working directory (or is not a folder). */
const outsideAdvice = `move ${INBOX_DIR} out of the way (or /cd to another directory) to receive files here`;

/**
 * Saves what users send into `<workdir>/.bridge/inbox/`: each file under a safe name that
 * never replaces another, written beside its place and renamed in only when whole, so a
 * failed or refused download leaves nothing behind. The folder ignores itself in git. A
 * repository may ship `.bridge` or its inbox as a symlink: one leading out of the working
 * directory is refused, and nothing is written or removed through it.
 */
export class Inbox {
  /** `timeoutMs`: a download still going after this long is stopped (the chat waits on it meanwhile). */
  constructor(
    private readonly downloads: Downloads,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  async save(workdir: string, attachment: Attachment): Promise<SavedFile> {
    const limit = this.downloads.maxBytes;
    if (attachment.size !== undefined && attachment.size > limit)
      throw new DownloadError(attachment, `it is ${megabytes(attachment.size)}, over the ${megabytes(limit)} a bot may download`);
    const dir = await prepare(workdir).catch((error: NodeJS.ErrnoException) => {
      if (error instanceof OutsideError) throw new DownloadError(attachment, `this chat's inbox: ${error.message}`, outsideAdvice);
      const gone = error.code === 'ENOENT';
      throw new DownloadError(
        attachment,
        gone ? `this chat's directory, ${workdir}, is gone` : `this chat's inbox could not be made (${error.message})`,
        gone ? '/cd to another directory to receive files' : 'send it again once that is fixed',
      );
    });
    // Everything is made in the inbox itself, held open: a folder on the way swapped for a link meanwhile leads nowhere.
    const held = await holdFolder(dir).catch((error: Error) => {
      throw new DownloadError(attachment, `this chat's inbox: ${error.message}`, outsideAdvice);
    });
    const partial = join(held.path, `.partial-${nanoid(8)}`);
    try {
      // Made here, new and not through a link, so the download writes into this very file.
      await (await open(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)).close();
      const { timeoutMs = 300_000 } = this.options;
      const deadline = AbortSignal.timeout(timeoutMs);
      await this.downloads.download(attachment, partial, deadline).catch((error: unknown) => {
        if (deadline.aborted) throw new DownloadError(attachment, `it was still arriving after ${Math.round(timeoutMs / 1000)} s, and was stopped`);
        throw error;
      });
      const { size } = await stat(partial);
      const name = await claimName(held.path, safeFileName(attachment.fileName, nameFor(attachment)));
      await rename(partial, join(held.path, name));
      await handToAgent(join(held.path, name)); // 0600: the agent user's, when agents run as one
      // Named under the working directory as the chat and the agent know it (the folder's real path may differ by a link).
      const named = join(workdir, relative(await realpath(workdir), join(dir, name)));
      return {
        path: named,
        kind: attachment.kind,
        ...(attachment.recorded ? { recorded: true } : {}),
        bytes: size,
        ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}),
        ...(attachment.durationSeconds !== undefined ? { durationSeconds: attachment.durationSeconds } : {}),
      };
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof DownloadError) throw error;
      throw new DownloadError(attachment, (error as Error).message);
    } finally {
      await held.close();
    }
  }

  /**
   * Sweeps the inboxes of `workdirs()` now and then every `intervalMs`, removing what is
   * older than `maxAgeMs`; until `stop`.
   */
  static sweepEvery(intervalMs: number, workdirs: () => Iterable<string>, maxAgeMs: number, log: Log): { stop: () => void } {
    const sweep = async () => {
      const { refused } = await Inbox.sweep(workdirs(), maxAgeMs);
      for (const why of refused) log.warn(`an inbox was not swept: ${why}`);
    };
    const onError = (error: Error) => log.error({ err: error }, 'sweeping the inboxes failed');
    void sweep().catch(onError);
    return every(intervalMs, sweep, onError);
  }

  /**
   * Removes files older than `maxAgeMs` from the inboxes of these working directories; returns
   * how many, and the inboxes left alone because they lead out of their directory. Only
   * regular files are removed, each looked at without following it (a link is not its target).
   */
  static async sweep(workdirs: Iterable<string>, maxAgeMs: number, now = Date.now()): Promise<{ removed: number; refused: string[] }> {
    let removed = 0;
    const refused: string[] = [];
    for (const workdir of new Set(workdirs)) {
      const dir = await existingInbox(workdir).catch((error: Error) => {
        if (!(error instanceof OutsideError)) throw error;
        refused.push(`${workdir}: ${error.message}`);
        return undefined;
      });
      if (!dir) continue;
      // Looked at and removed in the folder that was checked, held open: swapped for a link meanwhile, it changes nothing.
      const held = await holdFolder(dir).catch(() => undefined);
      if (!held) continue;
      try {
        for (const name of await readdir(held.path).catch(() => [] as string[])) {
          if (name === '.gitignore') continue;
          const path = join(held.path, name);
          const info = await lstat(path).catch(() => undefined);
          if (!info?.isFile() || now - info.mtimeMs <= maxAgeMs) continue;
          await unlink(path).catch(() => {});
          removed++;
        }
      } finally {
        await held.close();
      }
    }
    return { removed, refused };
  }
}

function nameFor(attachment: Attachment): string {
  // A kind an older bridge kept (a round video as 'video_note') still gets a name.
  const fallback = attachment.recorded || (attachment.kind as string) === 'video_note' ? 'video-note.mp4' : (DEFAULT_NAMES[attachment.kind] ?? 'file');
  // A document without a name still deserves its type's extension, so the agent knows what it is.
  if (extname(fallback) || !attachment.mimeType) return fallback;
  const subtype = /^[a-z]+\/([a-z0-9.+-]+)$/i.exec(attachment.mimeType)?.[1];
  return subtype ? `${fallback}.${subtype.replace(/^x-/, '').split('+')[0]}` : fallback;
}

/** The inbox's real folder, made where missing; an OutsideError when it leads out of `workdir`. */
async function prepare(workdir: string): Promise<string> {
  const dir = await containedDir(workdir, INBOX_DIR, projectFolderMode());
  // Files people send are not the project's: keep them out of commits. (`wx` never writes through a link.)
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return dir;
}

/** The inbox's real folder if there is one (nothing is made); an OutsideError when it leads out of `workdir`. */
async function existingInbox(workdir: string): Promise<string | undefined> {
  const exists = await lstat(join(workdir, INBOX_DIR)).catch(() => undefined);
  if (!exists || !(await stat(workdir).catch(() => undefined))?.isDirectory()) return undefined;
  return containedDir(workdir, INBOX_DIR);
}

/** The first free name of `name`, `name-2`, `name-3`… in `dir`, reserved by creating it (so two saves never pick the same one). */
async function claimName(dir: string, name: string): Promise<string> {
  const extension = extname(name);
  const stem = basename(name, extension);
  for (let n = 1; ; n++) {
    const claimed = n === 1 ? name : `${stem}-${n}${extension}`;
    const handle = await open(join(dir, claimed), 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (handle) {
      await handle.close();
      return claimed;
    }
  }
}
