import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sizeOf, type SessionFile } from '../../engine/adapters/session-files.ts';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { writePrivateFile } from '../../kernel/store/private-files.ts';
import type { QueueSealer } from './sealing.ts';

/**
 * A session state is refused past this size (the CLI's files, before compression):
 * a transcript holds whatever the agent read, and a session bigger than this is better started
 * afresh than carried through Redis after every turn.
 */
export const SESSION_STATE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * How long a state copied back stays good for the bridge to take: it crosses Redis once, right
 * after its turn, sealed in its placement's channel. One older (replayed, or held back) is
 * refused; the next turn's replaces it.
 */
export const STATE_VALID_SECONDS = 15 * 60;

/** The CLI session's files, packed (gzipped JSON, base64): what travels inside a sealed message. */
export interface PackedSession {
  sessionId: string;
  packed: string;
  /** Their size before compression. */
  bytes: number;
}

/** What a worker copies back after a turn, in its placement's channel: bound to that placement, numbered within it, and short-lived. */
export interface SessionState extends PackedSession {
  placement: number;
  /** 1 for the first state of the placement, and up by one with each. */
  seq: number;
  /** Milliseconds since the epoch after which the bridge refuses it. */
  exp: number;
}

/** A state the bridge keeps, as it knows it: which placement and number it came as (a later one replaces it, an earlier never). */
interface Kept extends PackedSession {
  placement: number;
  seq: number;
}

/** The session's files as a state for the bridge, or why not (too big). */
export function packSessionState(
  placement: number,
  seq: number,
  sessionId: string,
  files: SessionFile[],
  now = Date.now(),
): { state: SessionState } | { refused: string } {
  const bytes = sizeOf(files);
  if (bytes > SESSION_STATE_MAX_BYTES)
    return { refused: `its session's files are ${megabytes(bytes)}, over the ${megabytes(SESSION_STATE_MAX_BYTES)} a session may carry between workers` };
  const packed = gzipSync(JSON.stringify({ files: files.map((file) => ({ path: file.path, data: file.data.toString('base64') })) })).toString('base64');
  return { state: { sessionId, packed, bytes, placement, seq, exp: now + STATE_VALID_SECONDS * 1000 } };
}

/** The session's files out of what was packed. */
export function unpackFiles(packed: string): SessionFile[] {
  const plain = gunzipSync(Buffer.from(packed, 'base64'), { maxOutputLength: SESSION_STATE_MAX_BYTES * 2 });
  const { files } = JSON.parse(plain.toString('utf8')) as { files: { path: string; data: string }[] };
  return files.map((file) => ({ path: file.path, data: Buffer.from(file.data, 'base64') }));
}

/**
 * The bridge's side: the state as it is to be kept, when it came from the session's placement now,
 * has not expired, and comes after the one kept (by placement, then number); else why not.
 */
export function acceptSessionState(given: unknown, placement: number, kept: Kept | undefined, now = Date.now()): { state: Kept } | { refused: string } {
  const state = given as SessionState;
  const shaped =
    state &&
    typeof state.sessionId === 'string' &&
    typeof state.packed === 'string' &&
    Number.isSafeInteger(state.placement) &&
    Number.isSafeInteger(state.seq) &&
    typeof state.exp === 'number' &&
    state.bytes <= SESSION_STATE_MAX_BYTES;
  if (!shaped) return { refused: 'it is not a session state' };
  if (state.placement !== placement) return { refused: `it is of placement ${state.placement}, not the session's ${placement}` };
  if (state.exp <= now) return { refused: `it expired at ${new Date(state.exp).toISOString()}` };
  if (kept && (kept.placement > state.placement || (kept.placement === state.placement && kept.seq >= state.seq)))
    return { refused: `it is not newer than the state kept (number ${state.seq} of placement ${state.placement}; replayed, or stale)` };
  return { state: { sessionId: state.sessionId, packed: state.packed, bytes: state.bytes, placement: state.placement, seq: state.seq } };
}

/** A kept state as the bridge writes it to its disk: sealed with its own key, for this session. */
export function sealKept(sealer: QueueSealer, sessionKey: string, state: Kept): string {
  return sealer.seal(Buffer.from(JSON.stringify(state), 'utf8'), sessionKey);
}

/** A kept state from the bridge's disk, when it was sealed by this bridge for this session. */
export function openKept(sealer: QueueSealer, sessionKey: string, sealed: string): Kept | undefined {
  const plain = sealer.open(sealed.trim(), sessionKey);
  return plain && (JSON.parse(plain.toString('utf8')) as Kept);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

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
