import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { handToAgent, projectFolderMode } from '../process/agent-space.ts';
import { basename, extname, join } from 'node:path';
import { nanoid } from 'nanoid';
import type { Attachment, Downloads } from '../ports/transport.ts';
import { megabytes } from './sizes.ts';
import { safeFileName } from './safe-name.ts';

/** Where files sent to a chat are kept, under its working directory. */
export const INBOX_DIR = join('.bridge', 'inbox');

/** A file a user sent, now on disk. */
export interface SavedFile {
  path: string;
  kind: Attachment['kind'];
  bytes: number;
  mimeType?: string;
  durationSeconds?: number;
}

/** A download that failed: the file it was, and why, in a sentence for the chat. */
export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    readonly attachment: Attachment,
    message: string,
  ) {
    super(message);
  }
}

/** Names Telegram gives nothing to: a photo or a voice note has no file name. */
const DEFAULT_NAMES: Record<Attachment['kind'], string> = {
  document: 'document',
  photo: 'photo.jpg',
  voice: 'voice.oga',
  audio: 'audio',
  video: 'video.mp4',
  video_note: 'video-note.mp4',
};

/**
 * Saves what users send into `<workdir>/.bridge/inbox/`: each file under a safe name that
 * never replaces another, written beside its place and renamed in only when whole, so a
 * failed or refused download leaves nothing behind. The folder ignores itself in git.
 */
export class Inbox {
  constructor(private readonly downloads: Downloads) {}

  async save(workdir: string, attachment: Attachment): Promise<SavedFile> {
    const limit = this.downloads.maxBytes;
    if (attachment.size !== undefined && attachment.size > limit)
      throw new DownloadError(attachment, `it is ${megabytes(attachment.size)}, over the ${megabytes(limit)} a bot may download`);
    const dir = join(workdir, INBOX_DIR);
    await prepare(dir);
    const partial = join(dir, `.partial-${nanoid(8)}`);
    try {
      await this.downloads.download(attachment, partial);
      const { size } = await stat(partial);
      const path = await claimName(dir, safeFileName(attachment.fileName, nameFor(attachment)));
      await rename(partial, path);
      await handToAgent(path); // 0600: the agent user's, when agents run as one
      return { path, kind: attachment.kind, bytes: size, ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}), ...durationOf(attachment) };
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof DownloadError) throw error;
      throw new DownloadError(attachment, (error as Error).message);
    }
  }

  /** Removes files older than `maxAgeMs` from the inboxes of these working directories; returns how many. */
  async sweep(workdirs: Iterable<string>, maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const workdir of new Set(workdirs)) {
      const dir = join(workdir, INBOX_DIR);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        if (name === '.gitignore') continue;
        const path = join(dir, name);
        const info = await stat(path).catch(() => undefined);
        if (info?.isFile() && now - info.mtimeMs > maxAgeMs) {
          await rm(path, { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}

function nameFor(attachment: Attachment): string {
  const fallback = DEFAULT_NAMES[attachment.kind];
  // A document without a name still deserves its type's extension, so the agent knows what it is.
  if (extname(fallback) || !attachment.mimeType) return fallback;
  const subtype = /^[a-z]+\/([a-z0-9.+-]+)$/i.exec(attachment.mimeType)?.[1];
  return subtype ? `${fallback}.${subtype.replace(/^x-/, '').split('+')[0]}` : fallback;
}

function durationOf(attachment: Attachment): Pick<SavedFile, 'durationSeconds'> {
  return attachment.durationSeconds !== undefined ? { durationSeconds: attachment.durationSeconds } : {};
}

async function prepare(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: projectFolderMode() });
  // Files people send are not the project's: keep them out of commits.
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

/** The first free name of `name`, `name-2`, `name-3`…, reserved by creating it (so two saves never pick the same one). */
async function claimName(dir: string, name: string): Promise<string> {
  const extension = extname(name);
  const stem = basename(name, extension);
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? name : `${stem}-${n}${extension}`);
    const handle = await open(path, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (handle) {
      await handle.close();
      return path;
    }
  }
}
