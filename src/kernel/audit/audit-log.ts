import { hash } from 'node:crypto';
import { createWriteStream, existsSync, fstatSync, openSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';

export type AuditEvent =
  | 'spawn'
  | 'stop'
  | 'timeout'
  | 'tool_call'
  | 'tool_approved'
  | 'tool_approval'
  | 'tool_auto_approved'
  | 'tool_denied'
  | 'revoke'
  | 'send'
  | 'trust'
  | 'untrust'
  | 'merge'
  | 'discard'
  | 'hook'
  | 'message'
  | 'allow'
  | 'deny'
  | 'blocked'
  | 'egress_allowed'
  | 'net';

export interface AuditEntry {
  time: string;
  event: AuditEvent;
  runId?: string;
  chat: string;
  tool?: string;
  /** The start of the tool's input, and a hash of all of it: enough to review, not a copy. */
  inputPreview?: string;
  inputHash?: string;
  decision?: string;
  by?: string;
  detail?: string;
  /** A webhook's delivery: the hook, the HTTP status it was answered with, its delivery id, the turn it started (an API client's message: its turn too). */
  hook?: string;
  status?: number;
  delivery?: string;
  turnId?: string;
}

const PREVIEW_CHARS = 1024;
/** Entries are written this often. */
const BATCH_MS = 100;

type Counts = Partial<Record<AuditEvent, number>>;

/**
 * An append-only JSONL trail in BRIDGE_DATA_DIR/audit.jsonl of what agents were allowed to
 * do and by whom: every spawn, stop, timeout and revoke, every tool call with the decision on
 * it, every merge or discard of a run's worktree, every webhook delivery and every message an
 * API client sends into a chat (taken or refused). Appends go through one stream so lines never interleave; the file is
 * rotated by size, and each run's counts are kept as they are written (its record takes them
 * when it ends), so nothing ever reads the trail back.
 */
export class AuditLog {
  readonly file: string;
  private stream: WriteStream | undefined;
  private bytes = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly counts = new Map<string, Counts>();
  /** Lines not yet handed to the stream, and when they will be on disk (one promise for all of them). */
  private batch: string[] = [];
  private batchWritten: { promise: Promise<void>; resolve: () => void } | undefined;
  private batchTimer: NodeJS.Timeout | undefined;

  /** The live file is rotated past `maxBytes`: `audit.jsonl` becomes `audit.jsonl.1`, and so on, `keep` of them kept. */
  constructor(
    dataDir: string,
    private readonly rotation = { maxBytes: 10 * 1024 * 1024, keep: 5 },
  ) {
    this.file = join(dataDir, 'audit.jsonl');
  }

  /**
   * Appends one entry. Entries are written in batches, every BATCH_MS: a write costs more
   * than an entry, and a busy run makes many. Resolves once the entry is on its way to disk.
   */
  record(entry: Omit<AuditEntry, 'time' | 'inputPreview' | 'inputHash'> & { input?: unknown }): Promise<void> {
    const { input, ...rest } = entry;
    const line: AuditEntry = { time: new Date().toISOString(), ...rest, ...(input !== undefined ? inputFields(input) : {}) };
    const text = JSON.stringify(line) + '\n';
    if (!this.stream) this.open();
    else if (this.bytes > 0 && this.bytes + Buffer.byteLength(text) > this.rotation.maxBytes) this.rotate();
    this.bytes += Buffer.byteLength(text);
    if (line.runId) {
      const counts = this.counts.get(line.runId) ?? {};
      counts[line.event] = (counts[line.event] ?? 0) + 1;
      this.counts.set(line.runId, counts);
    }
    this.batch.push(text);
    this.batchWritten ??= withResolvers();
    this.batchTimer ??= setTimeout(() => this.writeBatch(), BATCH_MS);
    return this.batchWritten.promise;
  }

  /** Resolves once every entry recorded so far is on disk. */
  async flush(): Promise<void> {
    this.writeBatch();
    await this.tail;
  }

  private writeBatch(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (!this.batch.length || !this.stream) return;
    const [text, waiting] = [this.batch.join(''), this.batchWritten];
    this.batch = [];
    this.batchWritten = undefined;
    const written = new Promise<void>((resolve) => this.stream!.write(text, () => resolve()));
    this.tail = Promise.all([this.tail, written]);
    void written.then(() => waiting?.resolve());
  }

  /** How many entries of each event a run has had since the bridge started, for /subagents info. */
  countsFor(runId: string): Counts {
    return { ...this.counts.get(runId) };
  }

  /** A run's counts are on its record once it ended: this log need not hold them any more. */
  forget(runId: string): void {
    this.counts.delete(runId);
  }

  /** Opened synchronously, so the file is there to rotate however fast lines come. */
  private open(): void {
    const fd = openSync(this.file, 'a', 0o600);
    this.bytes = fstatSync(fd).size;
    this.stream = createWriteStream('', { fd }).on('error', () => {});
  }

  /** The open stream keeps writing what it has into the renamed file; new lines start a new one. */
  private rotate(): void {
    this.writeBatch(); // what came before the rotation goes into the file it belongs to
    this.stream!.end();
    rmSync(`${this.file}.${this.rotation.keep}`, { force: true });
    for (let n = this.rotation.keep - 1; n >= 1; n--) if (existsSync(`${this.file}.${n}`)) renameSync(`${this.file}.${n}`, `${this.file}.${n + 1}`);
    renameSync(this.file, `${this.file}.1`);
    this.open();
  }
}

function inputFields(input: unknown): { inputPreview: string; inputHash: string } {
  const text = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  return {
    inputPreview: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text,
    inputHash: `sha256:${hash('sha256', text)}`,
  };
}

/** Promise.withResolvers, which Node 20 lacks. */
function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
