import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * Until `count` chats have their CLI session on disk: a kill before that leaves a turn whose
 * session nobody can name, which runs again from its message instead of being resumed.
 */
export function sessionsStored(dataDir: string, count: number): Promise<void> {
  return expect
    .poll(
      async () => {
        const { chats } = JSON.parse(await readFile(join(dataDir, 'chats.json'), 'utf8').catch(() => '{"chats":{}}')) as {
          chats: Record<string, { cliSessionId?: string }>;
        };
        return Object.values(chats).filter((chat) => chat.cliSessionId).length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
}
