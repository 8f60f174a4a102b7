import type { CloudAdapter, TurnContext } from 'botbuilder';
import type { Log } from '../../kernel/log/logger.ts';
import type { TransportRoute } from '../../kernel/ports/transport.ts';
import { tenantOf } from './incoming.ts';

/** The messaging endpoint, as the Azure Bot's configuration names it. */
export const MESSAGES_PATH = '/api/messages';

/**
 * The Bot Framework's messaging endpoint on the bridge's web server (under its body limit):
 * `POST /api/messages`, each activity handed to the CloudAdapter, which checks its JWT and
 * answers 401 without one it trusts. An activity of another tenant than the bot's is refused
 * (403) before any of it is read; one that comes before the bridge serves is answered 503, so
 * the Bot Framework delivers it again.
 */
export class MessagesEndpoint {
  /** The bot's turn, once the bridge serves. */
  turn: ((context: TurnContext) => Promise<void>) | undefined;
  log: Pick<Log, 'warn' | 'error'> = { warn: () => {}, error: () => {} };

  constructor(
    private readonly adapter: CloudAdapter,
    private readonly tenantId: string,
  ) {}

  readonly routes: readonly TransportRoute[] = [{ method: 'POST', path: MESSAGES_PATH, handle: (request) => this.handle(request) }];

  private async handle(request: Request): Promise<Response> {
    let body: Record<string, unknown>;
    try {
      body = (await request.json()) as Record<string, unknown>;
    } catch {
      return new Response('unreadable body', { status: 400 });
    }
    const turn = this.turn;
    if (!turn) return new Response('starting', { status: 503 });
    const answer = new AnswerShape();
    let otherTenant: string | undefined;
    await this.adapter.process({ body, headers: Object.fromEntries(request.headers), method: 'POST' }, answer, async (context) => {
      // Checked after the JWT (an unsigned request learns nothing), before anything is done.
      const tenant = tenantOf(context.activity);
      if (tenant !== this.tenantId) {
        otherTenant = tenant ?? 'none';
        return;
      }
      await turn(context);
    });
    if (otherTenant !== undefined) {
      this.log.warn(`Teams: an activity of another tenant (${otherTenant}) refused: the bot serves its own tenant only`);
      return new Response('tenant refused', { status: 403 });
    }
    // The SDK answers a token whose signature or form is wrong (jsonwebtoken's own errors) 500: it is a refusal.
    if (answer.code === 500 && TOKEN_ERROR.test(answer.text())) answer.code = 401;
    if (answer.code === 401) this.log.warn('Teams: an activity whose token was not the Bot Framework’s refused (401)');
    return answer.response();
  }
}

/** jsonwebtoken's messages for a token it cannot trust. */
const TOKEN_ERROR = /^(invalid (signature|token|algorithm)|jwt (malformed|signature is required|not active|expired))/;

/** The Node-style response the adapter writes its answer into, as a fetch Response. */
class AnswerShape {
  code = 200;
  private body: unknown;
  private readonly headers = new Headers();
  readonly socket = undefined;

  status(code: number): this {
    this.code = code;
    return this;
  }

  header(name: string, value: unknown): this {
    this.headers.set(name, String(value));
    return this;
  }

  send(body?: unknown): this {
    this.body = body;
    return this;
  }

  end(): this {
    return this;
  }

  /** What it says, where it is text. */
  text(): string {
    return typeof this.body === 'string' ? this.body : '';
  }

  response(): Response {
    if (this.body === undefined || this.body === null) return new Response(null, { status: this.code, headers: this.headers });
    if (typeof this.body === 'string') return new Response(this.body, { status: this.code, headers: this.headers });
    return Response.json(this.body, { status: this.code, headers: this.headers });
  }
}
