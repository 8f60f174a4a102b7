import { fileJson, messageJson, type MethodContext } from './methods.ts';
import type { Envelope, EnvelopeType, SocketModeServer } from './socket-mode.ts';
import type { SlackChannel, StoredMessage, Workspace } from './workspace.ts';

export interface ActionDeps {
  readonly workspace: Workspace;
  readonly socket: SocketModeServer;
  readonly origin: string;
  /** Sends an envelope to the app: over Socket Mode, or to its request URL (the Events API). */
  deliver(type: EnvelopeType, payload: Record<string, unknown>): Envelope;
}

export interface SayOptions {
  /** The channel (a DM's id too); `dm` writes in the person's DM with the bot instead. */
  readonly channel?: string;
  readonly user: string;
  readonly text: string;
  /** A reply in the thread under this message. */
  readonly threadTs?: string;
  /** Files sent with it (a `file_share` message). */
  readonly files?: readonly { name: string; content: Buffer | string; mimetype?: string }[];
}

function context(deps: ActionDeps): MethodContext {
  return { workspace: deps.workspace, origin: deps.origin, ticket: () => deps.socket.ticket() };
}

function channelOrThrow(deps: ActionDeps, id: string): SlackChannel {
  const channel = deps.workspace.channels.get(id);
  if (!channel) throw new Error(`FakeSlack: no channel ${id}`);
  return channel;
}

function channelType(channel: SlackChannel): string {
  return channel.isIm ? 'im' : channel.isPrivate ? 'group' : 'channel';
}

function eventEnvelope(deps: ActionDeps, event: Record<string, unknown>): Envelope {
  const { identity } = deps.workspace;
  return deps.deliver('events_api', {
    token: 'fake-verification-token',
    team_id: identity.teamId,
    api_app_id: identity.appId,
    event,
    type: 'event_callback',
    event_id: deps.workspace.newId('Ev'),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ enterprise_id: null, team_id: identity.teamId, user_id: identity.botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  });
}

/**
 * A person writes: the message is stored and the app gets a `message` event (and an
 * `app_mention` too when the text mentions the bot, as Slack sends both to an app subscribed to both).
 */
export function say(deps: ActionDeps, options: SayOptions & { channel: string }): { message: StoredMessage; envelopes: Envelope[] } {
  const { workspace } = deps;
  const channel = channelOrThrow(deps, options.channel);
  if (!channel.members.has(options.user)) throw new Error(`FakeSlack: ${options.user} is not in ${channel.id}`);
  if (options.threadTs !== undefined && !workspace.message(channel.id, options.threadTs))
    throw new Error(`FakeSlack: no message ${options.threadTs} to reply under`);
  const files = (options.files ?? []).map((f) => {
    const id = workspace.newId('F');
    const content = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    workspace.files.set(id, { id, name: f.name, title: f.name, mimetype: f.mimetype ?? 'application/octet-stream', content, shared: true, user: options.user });
    return id;
  });
  const message = workspace.store({
    channel: channel.id,
    ts: workspace.nextTs(),
    user: options.user,
    fromBot: false,
    text: options.text,
    files,
    ...(options.threadTs ? { threadTs: options.threadTs } : {}),
  });
  const json = messageJson(context(deps), message);
  const event = {
    ...json,
    ...(files.length ? { subtype: 'file_share', files: files.map((id) => fileJson(context(deps), workspace.files.get(id)!)) } : {}),
    channel: channel.id,
    event_ts: message.ts,
    channel_type: channelType(channel),
    team: workspace.identity.teamId,
  };
  const envelopes = [eventEnvelope(deps, event)];
  if (!channel.isIm && options.text.includes(`<@${workspace.identity.botUserId}>`))
    envelopes.push(
      eventEnvelope(deps, {
        type: 'app_mention',
        user: options.user,
        text: options.text,
        ts: message.ts,
        channel: channel.id,
        event_ts: message.ts,
        ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      }),
    );
  return { message, envelopes };
}

/** A person types `/bridge <text>` in a channel (Slack offers no slash commands in threads). */
export function slashCommand(deps: ActionDeps, options: { channel: string; user: string; text: string; command?: string }): Envelope {
  const channel = channelOrThrow(deps, options.channel);
  const user = deps.workspace.users.get(options.user);
  const { identity } = deps.workspace;
  return deps.deliver('slash_commands', {
    token: 'fake-verification-token',
    team_id: identity.teamId,
    team_domain: identity.teamName,
    channel_id: channel.id,
    channel_name: channel.isIm ? 'directmessage' : channel.name,
    user_id: options.user,
    user_name: user?.name ?? options.user,
    command: options.command ?? '/bridge',
    text: options.text,
    api_app_id: identity.appId,
    is_enterprise_install: 'false',
    response_url: `${deps.origin}/commands/${identity.teamId}/${deps.workspace.newId('R')}`,
    trigger_id: deps.workspace.newId('T'),
  });
}

/** The buttons of a bot message's `actions` blocks. */
export function buttonsOf(message: StoredMessage): { blockId: string; actionId: string; text: string; value: string; url?: string }[] {
  const buttons: { blockId: string; actionId: string; text: string; value: string; url?: string }[] = [];
  for (const block of (message.blocks ?? []) as { type?: string; block_id?: string; elements?: Record<string, unknown>[] }[]) {
    if (block.type !== 'actions') continue;
    for (const e of block.elements ?? [])
      if (e.type === 'button')
        buttons.push({
          blockId: block.block_id ?? '',
          actionId: typeof e.action_id === 'string' ? e.action_id : '',
          text: String((e.text as { text?: string } | undefined)?.text ?? ''),
          value: typeof e.value === 'string' ? e.value : '',
          ...(typeof e.url === 'string' ? { url: e.url } : {}),
        });
  }
  return buttons;
}

/** A person presses a button of a bot message (by its text): a `block_actions` interaction. */
export function pressButton(deps: ActionDeps, options: { channel: string; ts: string; user: string; text: string | RegExp }): Envelope {
  const { workspace } = deps;
  const message = workspace.message(options.channel, options.ts);
  if (!message || message.deleted) throw new Error(`FakeSlack: no message ${options.ts} in ${options.channel}`);
  const button = buttonsOf(message).find((b) => (typeof options.text === 'string' ? b.text === options.text : options.text.test(b.text)));
  if (!button) throw new Error(`FakeSlack: no button "${String(options.text)}" on ${options.ts}: ${JSON.stringify(buttonsOf(message).map((b) => b.text))}`);
  const user = workspace.users.get(options.user);
  const channel = channelOrThrow(deps, options.channel);
  const { identity } = workspace;
  return deps.deliver('interactive', {
    type: 'block_actions',
    user: { id: options.user, username: user?.name ?? options.user, name: user?.name ?? options.user, team_id: identity.teamId },
    api_app_id: identity.appId,
    token: 'fake-verification-token',
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: channel.id,
      is_ephemeral: false,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    },
    trigger_id: workspace.newId('T'),
    team: { id: identity.teamId, domain: identity.teamName },
    channel: { id: channel.id, name: channel.name },
    message: messageJson(context(deps), message),
    response_url: `${deps.origin}/actions/${identity.teamId}/${workspace.newId('R')}`,
    actions: [
      {
        type: 'button',
        action_id: button.actionId,
        block_id: button.blockId,
        text: { type: 'plain_text', text: button.text, emoji: true },
        value: button.value,
        action_ts: workspace.nextTs(),
      },
    ],
    state: { values: {} },
  });
}
