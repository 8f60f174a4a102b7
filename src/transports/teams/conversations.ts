import { join } from 'node:path';
import { KeptJson } from '../../kernel/store/kept-json.ts';

/** Conversations remembered at most: the oldest are forgotten first. */
const MAX_CONVERSATIONS = 5000;

/**
 * Where each conversation's Bot Connector is: an activity names its service URL, and the
 * bridge answers there, also later (a run's result, an answer after a restart). Kept in the
 * data directory, so a restart can still reach every chat it was written in.
 */
export class KnownConversations {
  private constructor(
    private readonly kept: KeptJson,
    private readonly serviceUrls: Map<string, string>,
  ) {}

  static async open(dataDir: string): Promise<KnownConversations> {
    const kept = new KeptJson(join(dataDir, 'teams-conversations.json'));
    const held = await kept.read();
    const entries = Object.entries(typeof held === 'object' && held ? held : {}).filter((e): e is [string, string] => typeof e[1] === 'string');
    return new KnownConversations(kept, new Map(entries));
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
    await this.kept.write(() => Object.fromEntries(this.serviceUrls));
  }
}
