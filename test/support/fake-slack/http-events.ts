import { createHmac, randomUUID } from 'node:crypto';
import type { Changes } from '../fake-telegram/changes.ts';
import type { Envelope, EnvelopeType } from './socket-mode.ts';

/** How long Slack waits for an answer before it counts a request as failed and tries again. */
const ANSWER_TIMEOUT_MS = 3000;

/**
 * The Events API side of the twin: what Socket Mode would push, posted instead to the app's
 * request URL as Slack posts it (events as JSON, slash commands as a form, interactions as a
 * form's `payload`), signed with the signing secret; answered within 3 s or tried again
 * (`X-Slack-Retry-Num`), up to three times.
 */
export class HttpEvents {
  readonly envelopes: Envelope[] = [];
  /** Each request's HTTP status, in order (401 for a bad signature, say). */
  readonly statuses: number[] = [];

  constructor(
    private readonly changes: Changes,
    private readonly url: string,
    private readonly signingSecret: string,
  ) {}

  push(type: EnvelopeType, payload: Record<string, unknown>, options: { signingSecret?: string } = {}): Envelope {
    const envelope: Envelope = { envelopeId: randomUUID(), type, payload, sentAt: Date.now(), retries: -1 };
    this.envelopes.push(envelope);
    void this.post(envelope, options.signingSecret ?? this.signingSecret);
    return envelope;
  }

  private async post(envelope: Envelope, secret: string): Promise<void> {
    const { body, contentType } = encode(envelope.type, envelope.payload);
    for (let attempt = 0; attempt <= 3 && envelope.ackedAt === undefined; attempt++) {
      envelope.retries = attempt;
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
      const started = Date.now();
      try {
        const response = await fetch(this.url, {
          method: 'POST',
          headers: {
            'content-type': contentType,
            'x-slack-request-timestamp': String(timestamp),
            'x-slack-signature': signature,
            ...(attempt ? { 'x-slack-retry-num': String(attempt), 'x-slack-retry-reason': 'http_timeout' } : {}),
          },
          body,
          signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
        });
        this.statuses.push(response.status);
        const text = await response.text();
        if (response.ok) {
          envelope.ackedAt = Date.now();
          envelope.ackMs = envelope.ackedAt - started;
          if (text) envelope.ackPayload = JSON.parse(text) as Record<string, unknown>;
        } else if (response.status === 401) break;
      } catch {
        this.statuses.push(0);
      }
      this.changes.notify();
    }
    this.changes.notify();
  }
}

function encode(type: EnvelopeType, payload: Record<string, unknown>): { body: string; contentType: string } {
  if (type === 'events_api') return { body: JSON.stringify(payload), contentType: 'application/json' };
  if (type === 'interactive')
    return { body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), contentType: 'application/x-www-form-urlencoded' };
  return {
    body: new URLSearchParams(Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    contentType: 'application/x-www-form-urlencoded',
  };
}
