import type { Log } from '../../kernel/log/logger.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import type { TransportHost, TransportRoute } from '../../kernel/ports/transport.ts';
import type { SignedButtons } from './buttons.ts';
import type { MattermostApi } from './client.ts';
import { mattermostChat } from './id.ts';
import type { MattermostNames } from './members.ts';
import { ACTIONS_PATH } from './settings.ts';

/** What the server posts to a button's integration URL when someone presses it. */
interface PressRequest {
  user_id?: string;
  user_name?: string;
  channel_id?: string;
  post_id?: string;
  context?: unknown;
}

/**
 * The presses of the bridge's buttons, as the Mattermost server posts them to the web server
 * (`POST /mattermost/actions`): one whose context the bridge did not sign, for the channel it
 * came from, is refused (401) and goes no further. A press is answered at once (the server
 * waits for it), and handled after; what the core answers the presser shows to them alone.
 */
export class Presses {
  host: TransportHost | undefined;
  log: Pick<Log, 'warn' | 'error'> = { warn: () => {}, error: () => {} };

  constructor(
    private readonly buttons: SignedButtons,
    private readonly api: MattermostApi,
    private readonly names: MattermostNames,
  ) {}

  readonly routes: readonly TransportRoute[] = [{ method: 'POST', path: ACTIONS_PATH, handle: (request) => this.handle(request) }];

  private async handle(request: Request): Promise<Response> {
    let press: PressRequest;
    try {
      press = (await request.json()) as PressRequest;
    } catch {
      return new Response('unreadable body', { status: 400 });
    }
    const { user_id: user, channel_id: channel, post_id: post } = press;
    const context = typeof channel === 'string' ? this.buttons.verify(press.context, channel) : undefined;
    if (!context || typeof user !== 'string' || typeof post !== 'string') {
      this.log.warn('Mattermost: a press without the bridge’s signature was refused');
      return Response.json({ error: { message: 'not a button of this bridge' } }, { status: 401 });
    }
    const host = this.host;
    if (!host) return Response.json({ ephemeral_text: 'The bridge is starting: press again in a moment.' });
    const address = mattermostChat(context.c, context.r);
    void this.names
      .of(user, press.user_name)
      .then((name) => host.handleButton({ address, user: { id: user, ...(name ? { name } : {}) }, data: context.d, messageId: post }))
      .then((answer) =>
        answer.text
          ? this.api.post('/posts/ephemeral', {
              user_id: user,
              post: { channel_id: context.c, message: answer.text, ...(context.r ? { root_id: context.r } : {}) },
            })
          : undefined,
      )
      .catch((error: unknown) => this.log.error({ err: error, chat: chatKey(address) }, 'Mattermost: handling a press failed'));
    return Response.json({});
  }
}
