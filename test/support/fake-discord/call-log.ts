import type { Changes } from '../fake-telegram/changes.ts';

export interface RecordedFile {
  readonly field: string;
  readonly filename: string;
  readonly size: number;
}

/** One REST call the bot made, in arrival order. */
export interface RecordedCall {
  readonly seq: number;
  readonly method: string;
  /** The path under /api/v10, query left out: `/channels/123/messages`. */
  readonly path: string;
  /** The route's name, ids left out: `POST /channels/:id/messages`. */
  route: string;
  readonly body: Record<string, unknown> | undefined;
  readonly files: readonly RecordedFile[];
  readonly time: number;
  status: number | undefined;
  result: unknown;
  error: { code: number; message: string } | undefined;
}

export class CallLog {
  readonly calls: RecordedCall[] = [];

  constructor(private readonly changes: Changes) {}

  begin(method: string, path: string, body: Record<string, unknown> | undefined, files: RecordedFile[]): RecordedCall {
    const call: RecordedCall = {
      seq: this.calls.length + 1,
      method,
      path,
      route: `${method} ${path}`,
      body,
      files,
      time: Date.now(),
      status: undefined,
      result: undefined,
      error: undefined,
    };
    this.calls.push(call);
    return call;
  }

  finish(call: RecordedCall, status: number, result: unknown): void {
    call.status = status;
    if (status >= 400) call.error = result as RecordedCall['error'];
    else call.result = result;
    this.changes.notify();
  }

  describeRecent(count = 15): string {
    const recent = this.calls.slice(-count);
    if (!recent.length) return 'The bot made no REST call.';
    return [
      "The bot's last REST calls:",
      ...recent.map(
        (c) => `  ${c.route} → ${c.status ?? 'pending'}${c.error ? ` ${c.error.code} ${c.error.message}` : ''} ${JSON.stringify(c.body ?? {}).slice(0, 160)}`,
      ),
    ].join('\n');
  }
}
