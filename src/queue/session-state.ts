import { gunzipSync, gzipSync } from 'node:zlib';
import { sizeOf, type SessionFile } from '../adapters/session-files.ts';
import type { QueueSealer } from './sealing.ts';
import type { QueueSigner, Signed } from './signing.ts';

/**
 * A chat's session state is refused past this size (the CLI's files, before compression):
 * a transcript holds whatever the agent read, and a session bigger than this is better started
 * afresh than carried through Redis after every turn.
 */
export const SESSION_STATE_MAX_BYTES = 32 * 1024 * 1024;

/** What the key sealing chats' sessions' launches and states is derived for (HKDF's info). */
export const SESSION_SEALING = 'chat-sessions';

/** What a worker copies back after a turn: the CLI session it holds, sealed (AES-256-GCM) and signed. */
export interface SessionState {
  /** The CLI session the files hold. */
  sessionId: string;
  /** The files, gzipped JSON, sealed for the chat. */
  sealed: string;
  /** Their size before compression. */
  bytes: number;
}

interface Packed {
  files: { path: string; data: string }[];
}

/** How long a signed state stays valid: as long as the chat may come back to its session. */
const STATE_VALID_SECONDS = 10 * 365 * 24 * 3600;

/** The session's files as a state for the bridge, or why not (too big). */
export function packSessionState(
  signer: QueueSigner,
  sealer: QueueSealer,
  chatId: string,
  sessionId: string,
  files: SessionFile[],
): { state: Signed } | { refused: string } {
  const bytes = sizeOf(files);
  if (bytes > SESSION_STATE_MAX_BYTES)
    return { refused: `its session's files are ${megabytes(bytes)}, over the ${megabytes(SESSION_STATE_MAX_BYTES)} a session may carry between workers` };
  const packed: Packed = { files: files.map((file) => ({ path: file.path, data: file.data.toString('base64') })) };
  const sealed = sealer.seal(gzipSync(JSON.stringify(packed)), `${chatId}\n${sessionId}`);
  const body: SessionState = { sessionId, sealed, bytes };
  return { state: signer.sign({ kind: 'state', runId: chatId, attempt: 0 }, body, STATE_VALID_SECONDS) };
}

/** The state's session and files, when it was signed and sealed with the queue secret for this chat; else why not. */
export function openSessionState(
  signer: QueueSigner,
  sealer: QueueSealer,
  chatId: string,
  given: unknown,
): { sessionId: string; files: SessionFile[] } | { refused: string } {
  const verified = signer.verify<SessionState>(given, { kind: 'state', runId: chatId, attempt: 0 });
  if (!verified.ok) return { refused: verified.why };
  const { sessionId, sealed, bytes } = verified.body;
  if (typeof sessionId !== 'string' || typeof sealed !== 'string' || !(bytes <= SESSION_STATE_MAX_BYTES)) return { refused: 'it is not a session state' };
  const plain = sealer.open(sealed, `${chatId}\n${sessionId}`);
  if (!plain) return { refused: 'it does not decrypt with the queue secret for this chat' };
  const packed = JSON.parse(gunzipSync(plain, { maxOutputLength: SESSION_STATE_MAX_BYTES * 2 }).toString('utf8')) as Packed;
  return { sessionId, files: packed.files.map((file) => ({ path: file.path, data: Buffer.from(file.data, 'base64') })) };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
