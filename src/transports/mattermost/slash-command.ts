import { sameSecret } from '../../kernel/http/same-secret.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import type { TransportHost, TransportRoute } from '../../kernel/ports/transport.ts';
import { asCommand, commandNames } from '../serving/incoming.ts';
import { mattermostChat } from './id.ts';
import type { MattermostNames } from './members.ts';
import { COMMAND_PATH } from './settings.ts';

/**
 * The slash command an operator registers for the bridge (Integrations → Slash Commands,
 * `/bridge`, its Request URL the web server's `POST /mattermost/command`): the server posts each
 * use as a form with the command's token, which must be MATTERMOST_COMMAND_TOKEN (401
 * otherwise). `/bridge status` is the bridge's `/status` in that channel (or thread); a word
 * that is no command is answered to its writer alone.
 */
export class SlashCommand {
  host: TransportHost | undefined;
  log: Pick<Log, 'warn' | 'error'> = { warn: () => {}, error: () => {} };

  constructor(
    private readonly token: string,
    private readonly names: MattermostNames,
  ) {}

  readonly routes: readonly TransportRoute[] = [{ method: 'POST', path: COMMAND_PATH, handle: (request) => this.handle(request) }];

  private async handle(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    if (!sameSecret(form.get('token') ?? '', this.token)) {
      this.log.warn('Mattermost: a slash command without the command’s token was refused');
      return Response.json({ text: 'not this bridge’s command' }, { status: 401 });
    }
    const [channel, user] = [form.get('channel_id'), form.get('user_id')];
    const host = this.host;
    if (!channel || !user) return new Response('channel_id and user_id are missing', { status: 400 });
    if (!host) return Response.json({ response_type: 'ephemeral', text: 'The bridge is starting: try again in a moment.' });
    const written = (form.get('text') ?? '').trim() || 'help';
    const command = asCommand(written, commandNames(host));
    const slash = form.get('command') ?? '/bridge';
    if (!command)
      return Response.json({
        response_type: 'ephemeral',
        text: `\`${written.split(/\s/)[0]}\` is no command of the bridge: \`${slash} help\` lists them; to ask the agent, mention the bot or write to it directly.`,
      });
    const address = mattermostChat(channel, form.get('root_id') || undefined);
    const direct = (form.get('channel_name') ?? '').includes('__');
    void this.names
      .of(user, form.get('user_name') ?? undefined)
      .then((name) => host.handleMessage({ address, user: { id: user, ...(name ? { name } : {}) }, text: command, ...(direct ? { private: true } : {}) }))
      .catch((error: unknown) => this.log.error({ err: error, chat: chatKey(address) }, 'Mattermost: handling a slash command failed'));
    return Response.json({});
  }
}
