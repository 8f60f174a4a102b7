import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { own, putOwn } from '../../kernel/store/own.ts';

/**
 * Agents switched on or off from the chat (/agents enable|disable), by name, over what their
 * files say. Kept in the data directory, so a project's files are never written from a chat.
 */
export class AgentToggles {
  private constructor(private readonly db: Low<{ enabled: Record<string, boolean> }>) {}

  static async open(dataDir: string): Promise<AgentToggles> {
    return new AgentToggles(await openJsonStore(join(dataDir, 'agent-toggles.json'), { enabled: {} }));
  }

  get(slug: string): boolean | undefined {
    return own(this.db.data.enabled, slug);
  }

  async set(slug: string, enabled: boolean): Promise<void> {
    putOwn(this.db.data.enabled, slug, enabled);
    await this.db.write();
  }
}
