import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type AuditEvent = 'spawn' | 'stop' | 'timeout' | 'tool_call' | 'tool_approved' | 'tool_auto_approved' | 'tool_denied' | 'revoke';

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
}

const PREVIEW_CHARS = 1024;

/**
 * An append-only JSONL trail in BRIDGE_DATA_DIR/audit.jsonl of what agents were allowed to
 * do and by whom: every spawn, stop, timeout and revoke, and every tool call with the
 * decision on it. Appends are serialised so lines never interleave.
 */
export class AuditLog {
  readonly file: string;
  private stream: WriteStream | undefined;
  private tail: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = join(dataDir, 'audit.jsonl');
  }

  /** Appends one entry; one open file for the bridge's life, so a busy run costs one write a line. */
  record(entry: Omit<AuditEntry, 'time' | 'inputPreview' | 'inputHash'> & { input?: unknown }): Promise<void> {
    const { input, ...rest } = entry;
    const line: AuditEntry = { time: new Date().toISOString(), ...rest, ...(input !== undefined ? inputFields(input) : {}) };
    this.stream ??= createWriteStream(this.file, { flags: 'a', mode: 0o600 }).on('error', () => {});
    const stream = this.stream;
    this.tail = new Promise((resolve) => stream.write(JSON.stringify(line) + '\n', () => resolve()));
    return this.tail;
  }

  /** Resolves once every entry recorded so far is on disk. */
  flush(): Promise<void> {
    return this.tail;
  }

  /** How many entries of each event a run has, for /subagents info. */
  async countsFor(runId: string): Promise<Partial<Record<AuditEvent, number>>> {
    await this.tail;
    const text = await readFile(this.file, 'utf8').catch(() => '');
    const counts: Partial<Record<AuditEvent, number>> = {};
    for (const line of text.split('\n')) {
      if (!line.includes(runId)) continue;
      try {
        const entry = JSON.parse(line) as AuditEntry;
        if (entry.runId === runId) counts[entry.event] = (counts[entry.event] ?? 0) + 1;
      } catch {
        // a torn last line
      }
    }
    return counts;
  }
}

function inputFields(input: unknown): { inputPreview: string; inputHash: string } {
  const text = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  return {
    inputPreview: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text,
    inputHash: `sha256:${createHash('sha256').update(text).digest('hex')}`,
  };
}
