import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../../kernel/log/logger.ts';
import { writePrivateFile } from '../../kernel/store/private-files.ts';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { QueueSealer } from './sealing.ts';
import { acceptSessionState, openKept, sealKept, type SessionState } from './session-state.ts';

/**
 * The sessions' states as the bridge keeps them (`session-states/`, a private file per
 * session), sealed with its own key: the newest that came from each session's placement, fresh, and
 * after the one kept. Writes for one session go one at a time, in the order they came.
 */
export class KeptStates {
  /** What is read, written and removed of one session, one at a time in the order asked. */
  private readonly serial = new KeyedSerializer();
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly sealer: QueueSealer,
    private readonly log: Log,
  ) {
    this.dir = join(dataDir, 'session-states');
  }

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Keeps a state copied back by the session's placement `attempt` (it came in that placement's channel), or logs why not. */
  keep(sessionKey: string, attempt: number, given: SessionState): Promise<void> {
    return this.serial.run(sessionKey, async () => {
      const accepted = acceptSessionState(given, attempt, await this.readNow(sessionKey));
      if ('refused' in accepted) return void this.log.warn({ session: sessionKey }, `refused a session's state from Redis: ${accepted.refused}`);
      await writePrivateFile(this.file(sessionKey), sealKept(this.sealer, sessionKey, accepted.state));
    });
  }

  /** The state last kept, when one is and it opens with the bridge's key for this chat; after every keep asked before it. */
  read(sessionKey: string): Promise<ReturnType<typeof openKept>> {
    return this.serial.run(sessionKey, () => this.readNow(sessionKey));
  }

  private async readNow(sessionKey: string): Promise<ReturnType<typeof openKept>> {
    const raw = await readFile(this.file(sessionKey), 'utf8').catch(() => undefined);
    if (!raw) return undefined;
    const kept = openKept(this.sealer, sessionKey, raw);
    if (!kept) {
      this.log.warn({ session: sessionKey }, "a kept session state does not open with the bridge's key; the session starts afresh");
      await rm(this.file(sessionKey), { force: true });
    }
    return kept;
  }

  /** The session's work is over: its state goes, once what is being written has been. */
  forget(sessionKey: string): Promise<void> {
    return this.serial.run(sessionKey, () => rm(this.file(sessionKey), { force: true }));
  }

  private file(sessionKey: string): string {
    return join(this.dir, `${sessionKey}.json`);
  }
}
