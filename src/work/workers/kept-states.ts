import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../../kernel/log/logger.ts';
import { writePrivateFile } from '../../kernel/store/private-files.ts';
import type { QueueSealer } from './sealing.ts';
import { acceptSessionState, openKept, sealKept, type SessionState } from './session-state.ts';

/**
 * The chats' session states as the bridge keeps them (`session-states/`, a private file per
 * chat), sealed with its own key: the newest that came from each chat's placement, fresh, and
 * after the one kept. Writes for one chat go one at a time, in the order they came.
 */
export class KeptStates {
  private readonly saving = new Map<string, Promise<void>>();

  constructor(
    private readonly dir: string,
    private readonly sealer: QueueSealer,
    private readonly log: Log,
  ) {}

  static in(dataDir: string, sealer: QueueSealer, log: Log): KeptStates {
    return new KeptStates(join(dataDir, 'session-states'), sealer, log);
  }

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Keeps a state copied back by the chat's placement `attempt` (it came in that placement's channel), or logs why not. */
  keep(chatId: string, attempt: number, given: SessionState): Promise<void> {
    const saved = (this.saving.get(chatId) ?? Promise.resolve())
      .catch(() => {})
      .then(async () => {
        const accepted = acceptSessionState(given, attempt, await this.readNow(chatId));
        if ('refused' in accepted) return void this.log.warn({ chat: chatId }, `refused a chat's session state from Redis: ${accepted.refused}`);
        await writePrivateFile(this.file(chatId), sealKept(this.sealer, chatId, accepted.state));
      });
    this.saving.set(chatId, saved);
    return saved;
  }

  /** The state last kept, when one is and it opens with the bridge's key for this chat; after every keep asked before it. */
  async read(chatId: string): Promise<ReturnType<typeof openKept>> {
    await (this.saving.get(chatId) ?? Promise.resolve()).catch(() => {});
    return this.readNow(chatId);
  }

  private async readNow(chatId: string): Promise<ReturnType<typeof openKept>> {
    const raw = await readFile(this.file(chatId), 'utf8').catch(() => undefined);
    if (!raw) return undefined;
    const kept = openKept(this.sealer, chatId, raw);
    if (!kept) {
      this.log.warn({ chat: chatId }, "a kept session state does not open with the bridge's key; the session starts afresh");
      await rm(this.file(chatId), { force: true });
    }
    return kept;
  }

  /** The session's work is over: its state goes, once what is being written has been. */
  async forget(chatId: string): Promise<void> {
    await (this.saving.get(chatId) ?? Promise.resolve()).catch(() => {});
    this.saving.delete(chatId);
    await rm(this.file(chatId), { force: true });
  }

  private file(chatId: string): string {
    return join(this.dir, `${chatId}.json`);
  }
}
