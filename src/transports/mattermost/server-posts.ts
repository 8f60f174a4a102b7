import { sameSecret } from '../../kernel/http/same-secret.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import type { TransportHost, TransportRoute } from '../../kernel/ports/transport.ts';
import { commandNames, slashCommand } from '../serving/incoming.ts';
import type { SignedButtons } from './buttons.ts';
import type { MattermostApi } from './client.ts';
import { mattermostChat } from './id.ts';
import type { MattermostNames } from './members.ts';
import { ACTIONS_PATH, COMMAND_PATH } from './settings.ts';

/** What the server posts to a button's integration URL when someone presses it. */
interface PressRequest {
  user_id?: string;
  user_name?: string;
  channel_id?: string;
  post_id?: string;
  context?: unknown;
}

/**
 * What the Mattermost server posts to the bridge's web server: the presses of its buttons, and
 * the uses of the slash command an operator registered for it (with MATTERMOST_COMMAND_TOKEN).
 * Each is answered at once (the server waits for it) and handled after.
 */
export class ServerPosts {
  host: TransportHost | undefined;
  log: Pick<Log, 'warn' | 'error'> = { warn: () => {}, error: () => {} };

  constructor(
    private readonly buttons: SignedButtons,
    private readonly api: MattermostApi,
    private readonly names: MattermostNames,
    /** The slash command's token; none: no slash command. */
    private readonly commandToken?: string,
  ) {}

  get routes(): TransportRoute[] {
    const press: TransportRoute = { method: 'POST', path: ACTIONS_PATH, handle: (request) => this.press(request) };
    return this.commandToken ? [press, { method: 'POST', path: COMMAND_PATH, handle: (request) => this.command(request) }] : [press];
  }

  /**
   * A press (`POST /mattermost/actions`): one whose context the bridge did not sign, for the
   * channel it came from, is refused (401) and goes no further; what the core answers the
   * presser shows to them alone.
   */
  private async press(request: Request): Promise<Response> {
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
          ? this.api.call('post', '/posts/ephemeral', {
              user_id: user,
              post: { channel_id: context.c, message: answer.text, ...(context.r ? { root_id: context.r } : {}) },
            })
          : undefined,
      )
      .catch((error: unknown) => this.log.error({ err: error, chat: chatKey(address) }, 'Mattermost: handling a press failed'));
    return Response.json({});
  }

  /**
   * A use of the slash command (Integrations → Slash Commands, `/bridge`, its Request URL the web
   * server's `POST /mattermost/command`): the server posts it as a form with the command's token,
   * which must be MATTERMOST_COMMAND_TOKEN (401 otherwise). `/bridge status` is the bridge's
   * `/status` in that channel (or thread); a word that is no command is answered to its writer alone.
   */
  private async command(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    if (!sameSecret(form.get('token') ?? '', this.commandToken!)) {
      this.log.warn('Mattermost: a slash command without the command’s token was refused');
      return Response.json({ text: 'not this bridge’s command' }, { status: 401 });
    }
    const [channel, user] = [form.get('channel_id'), form.get('user_id')];
    const host = this.host;
    if (!channel || !user) return new Response('channel_id and user_id are missing', { status: 400 });
    if (!host) return Response.json({ response_type: 'ephemeral', text: 'The bridge is starting: try again in a moment.' });
    const used = slashCommand(form.get('text') ?? '', form.get('command') ?? '/bridge', commandNames(host));
    if ('unknown' in used) return Response.json({ response_type: 'ephemeral', text: used.unknown });
    const address = mattermostChat(channel, form.get('root_id') || undefined);
    const direct = (form.get('channel_name') ?? '').includes('__');
    void this.names
      .of(user, form.get('user_name') ?? undefined)
      .then((name) => host.handleMessage({ address, user: { id: user, ...(name ? { name } : {}) }, text: used.command, ...(direct ? { private: true } : {}) }))
      .catch((error: unknown) => this.log.error({ err: error, chat: chatKey(address) }, 'Mattermost: handling a slash command failed'));
    return Response.json({});
  }
}
