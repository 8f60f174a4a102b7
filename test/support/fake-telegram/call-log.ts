import type { Changes } from './changes.ts';
import type { UploadedFile } from './request-body.ts';

export interface RecordedFile {
  readonly field: string;
  readonly filename: string;
  readonly size: number;
}

export interface ErrorEnvelope {
  readonly ok: false;
  readonly error_code: number;
  readonly description: string;
  readonly parameters?: { readonly retry_after?: number; readonly migrate_to_chat_id?: number };
}

/** One HTTP call the bot made, in arrival order. */
export interface RecordedCall {
  readonly seq: number;
  /** The method name as the bot wrote it in the URL. */
  readonly method: string;
  /** Decoded parameters; JSON-valued form fields (chat_id, reply_markup …) are decoded too. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly files: readonly RecordedFile[];
  /** Date.now() on arrival. */
  readonly time: number;
  /** HTTP status; undefined while pending; 0 when no response was delivered (dropped connection). */
  readonly status: number | undefined;
  readonly ok: boolean | undefined;
  readonly result: unknown;
  readonly error: ErrorEnvelope | undefined;
  /** True when the outcome came from failNext rather than from the method. */
  readonly injected: boolean;
  readonly durationMs: number | undefined;
}

type MutableCall = { -readonly [K in keyof RecordedCall]: RecordedCall[K] };

export class CallLog {
  private readonly log: MutableCall[] = [];

  constructor(private readonly changes: Changes) {}

  get calls(): readonly RecordedCall[] {
    return this.log;
  }

  begin(method: string, params: Record<string, unknown>, files: Iterable<UploadedFile>): RecordedCall {
    const call: MutableCall = {
      seq: this.log.length + 1,
      method,
      params,
      files: [...files].map((f) => ({ field: f.field, filename: f.filename, size: f.bytes.length })),
      time: Date.now(),
      status: undefined,
      ok: undefined,
      result: undefined,
      error: undefined,
      injected: false,
      durationMs: undefined,
    };
    this.log.push(call);
    this.changes.notify();
    return call;
  }

  finish(call: RecordedCall, outcome: { status: number; injected: boolean } & ({ ok: true; result: unknown } | { ok: false; error?: ErrorEnvelope })): void {
    const target = this.log[call.seq - 1];
    if (target !== call) throw new Error('finish() of a call that is not in this log');
    target.status = outcome.status;
    target.injected = outcome.injected;
    target.durationMs = Date.now() - target.time;
    target.ok = outcome.status === 0 ? undefined : outcome.ok;
    if (outcome.ok) target.result = outcome.result;
    else target.error = outcome.error;
    this.changes.notify();
  }

  /** The last calls, one per line, for timeout messages. Polls are left out: they are noise. */
  describeRecent(count = 15): string {
    const recent = this.log.filter((c) => c.method.toLowerCase() !== 'getupdates').slice(-count);
    if (recent.length === 0) return 'The bot made no API calls (other than getUpdates).';
    const lines = recent.map((c) => {
      const outcome = c.status === undefined ? 'pending' : c.status === 0 ? 'dropped' : `${c.status}`;
      const detail = c.error ? ` ${c.error.description}` : '';
      return `  #${c.seq} ${c.method} -> ${outcome}${detail} ${JSON.stringify(c.params).slice(0, 200)}`;
    });
    return `Recent calls (oldest first):\n${lines.join('\n')}`;
  }
}
