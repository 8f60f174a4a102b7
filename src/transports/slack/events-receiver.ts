import { verifySlackRequest, type App, type Receiver, type ReceiverEvent } from '@slack/bolt';
import type { Log } from '../../kernel/log/logger.ts';
import type { TransportRoute } from '../../kernel/ports/transport.ts';

/** Slack waits 3 s for an answer; the bridge answers well before, acked or not, so Slack does not retry. */
const ANSWER_WITHIN_MS = 2500;

/**
 * The Events API on the bridge's own web server (with SLACK_SIGNING_SECRET, instead of Socket
 * Mode): a Bolt receiver whose one route, `POST /slack/events`, takes events, slash commands and
 * button presses. Each request's signature is checked against the signing secret (a request
 * older than five minutes is refused, so a captured one cannot be replayed), Slack's
 * url_verification is answered, and the request is answered as soon as Bolt acks it.
 */
export class EventsReceiver implements Receiver {
  private app: App | undefined;
  /** The bridge's log, once it serves. */
  log: Pick<Log, 'warn' | 'error'> = { warn: () => {}, error: () => {} };

  constructor(private readonly signingSecret: string) {}

  init(app: App): void {
    this.app = app;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    this.app = undefined;
  }

  readonly routes: readonly TransportRoute[] = [{ method: 'POST', path: '/slack/events', handle: (request) => this.handle(request) }];

  private async handle(request: Request): Promise<Response> {
    const raw = await request.text();
    try {
      verifySlackRequest({
        signingSecret: this.signingSecret,
        body: raw,
        headers: {
          'x-slack-signature': request.headers.get('x-slack-signature') ?? '',
          'x-slack-request-timestamp': Number(request.headers.get('x-slack-request-timestamp')),
        },
      });
    } catch (error) {
      this.log.warn(`Slack: a request to /slack/events refused: ${(error as Error).message}`);
      return new Response('invalid signature', { status: 401 });
    }
    let body: Record<string, unknown>;
    try {
      body = parseBody(raw, request.headers.get('content-type') ?? '');
    } catch {
      return new Response('unreadable body', { status: 400 });
    }
    if (body.type === 'url_verification') return Response.json({ challenge: body.challenge });
    // Slack checking the certificate of a slash command's URL: nothing to do.
    if (body.ssl_check !== undefined) return new Response(null, { status: 200 });
    // The events of an app still starting: Slack tries them again.
    const app = this.app;
    if (!app) return new Response('starting', { status: 503 });
    // The first answer is the one given: an ack, a failure, or the plain 200 at the deadline.
    return new Promise<Response>((resolve) => {
      const timer = setTimeout(() => resolve(new Response(null, { status: 200 })), ANSWER_WITHIN_MS);
      const answer = (response: Response) => {
        clearTimeout(timer);
        resolve(response);
      };
      const retryNum = Number(request.headers.get('x-slack-retry-num'));
      const retryReason = request.headers.get('x-slack-retry-reason');
      const event: ReceiverEvent = {
        body,
        ...(Number.isFinite(retryNum) && request.headers.has('x-slack-retry-num') ? { retryNum } : {}),
        ...(retryReason ? { retryReason } : {}),
        ack: async (response?: unknown) => {
          if (response === undefined || response === '') answer(new Response(null, { status: 200 }));
          else if (typeof response === 'string') answer(new Response(response, { status: 200 }));
          else answer(Response.json(response));
        },
      };
      app.processEvent(event).catch((error: unknown) => {
        this.log.error({ err: error }, 'Slack: handling an event failed');
        answer(new Response(null, { status: 500 }));
      });
    });
  }
}

/** Events come as JSON; slash commands as a form; presses as a form whose `payload` is JSON. */
function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(raw);
    const payload = form.get('payload');
    return payload ? (JSON.parse(payload) as Record<string, unknown>) : Object.fromEntries(form);
  }
  return JSON.parse(raw) as Record<string, unknown>;
}
