import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '../../kernel/store/private-files.ts';

/** Conversations remembered at most: the oldest are forgotten first. */
const MAX_CONVERSATIONS = 5000;

/**
 * Where each conversation's Bot Connector is: an activity names its service URL, and the
 * bridge answers there, also later (a run's result, an answer after a restart). Kept in the
 * data directory, so a restart can still reach every chat it was written in.
 */
export class KnownConversations {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly serviceUrls: Map<string, string>,
  ) {}

  static async open(dataDir: string): Promise<KnownConversations> {
    const file = join(dataDir, 'teams-conversations.json');
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{}';
      throw error;
    });
    let held: unknown;
    try {
      held = JSON.parse(text);
    } catch {
      held = {};
    }
    const entries = Object.entries(typeof held === 'object' && held ? held : {}).filter((e): e is [string, string] => typeof e[1] === 'string');
    return new KnownConversations(file, new Map(entries));
  }

  /** The service URL of a chat (a channel, a group or personal chat), by its id. */
  serviceUrl(chat: string): string | undefined {
    return this.serviceUrls.get(chat);
  }

  async remember(chat: string, serviceUrl: string): Promise<void> {
    if (this.serviceUrls.get(chat) === serviceUrl) return;
    this.serviceUrls.delete(chat);
    this.serviceUrls.set(chat, serviceUrl);
    if (this.serviceUrls.size > MAX_CONVERSATIONS) this.serviceUrls.delete(this.serviceUrls.keys().next().value!);
    // One write at a time (they share a temporary file), each of the map as it is then.
    const written = this.writing.then(() => writePrivateFile(this.file, JSON.stringify(Object.fromEntries(this.serviceUrls))));
    this.writing = written.catch(() => undefined);
    await written;
  }
}
