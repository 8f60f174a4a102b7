import { checkText, parseBlocks } from './blocks.ts';
import { SlackError } from './slack-error.ts';
import type { SlackChannel, SlackFile, StoredMessage, Workspace } from './workspace.ts';

export type Params = Record<string, unknown>;

/** What a method needs: the workspace and where the server is (for the URLs it hands out). */
export interface MethodContext {
  readonly workspace: Workspace;
  readonly origin: string;
  /** A Socket Mode ticket for apps.connections.open. */
  ticket(): string;
}

type Method = (ctx: MethodContext, params: Params) => Record<string, unknown>;

/**
 * The bot-token scopes each method needs, as Slack documents them; for a conversation, the
 * scope of its kind (channels: for C…, groups: for G…, im: for D…).
 */
export const REQUIRED_SCOPES: Readonly<Record<string, (params: Params) => string | undefined>> = {
  'chat.postMessage': () => 'chat:write',
  'chat.update': () => 'chat:write',
  'chat.delete': () => 'chat:write',
  'chat.postEphemeral': () => 'chat:write',
  'reactions.add': () => 'reactions:write',
  // Slack takes assistant:write too, for now; chat:write is the one it keeps.
  'assistant.threads.setStatus': () => 'chat:write',
  'conversations.info': (params) => `${kindOf(params.channel)}:read`,
  'conversations.members': (params) => `${kindOf(params.channel)}:read`,
  'users.info': () => 'users:read',
  'files.getUploadURLExternal': () => 'files:write',
  'files.completeUploadExternal': () => 'files:write',
};

/** The scope that reads a file's bytes with the bot token. */
export const DOWNLOAD_SCOPE = 'files:read';

function kindOf(channel: unknown): string {
  const id = typeof channel === 'string' ? channel : '';
  return id.startsWith('D') ? 'im' : id.startsWith('G') ? 'groups' : 'channels';
}

/** Which token a method takes: the bot's, or the app-level one (Socket Mode). */
export const APP_TOKEN_METHODS = new Set(['apps.connections.open']);

function str(params: Params, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' || typeof value === 'number' ? (value === '' ? undefined : String(value)) : undefined;
}

function channelOf(ctx: MethodContext, params: Params, name = 'channel'): SlackChannel {
  const id = str(params, name);
  const channel = id && ctx.workspace.channels.get(id);
  if (!channel) throw new SlackError('channel_not_found');
  return channel;
}

function memberChannel(ctx: MethodContext, params: Params, name = 'channel'): SlackChannel {
  const channel = channelOf(ctx, params, name);
  if (!channel.members.has(ctx.workspace.identity.botUserId)) throw new SlackError('not_in_channel');
  return channel;
}

function ownMessage(ctx: MethodContext, params: Params, refusal: string): StoredMessage {
  const channel = channelOf(ctx, params);
  const message = ctx.workspace.message(channel.id, str(params, 'ts') ?? '');
  if (!message || message.deleted) throw new SlackError('message_not_found');
  if (!message.fromBot) throw new SlackError(refusal);
  return message;
}

export function messageJson(ctx: MethodContext, m: StoredMessage): Record<string, unknown> {
  const { identity } = ctx.workspace;
  return {
    type: 'message',
    ts: m.ts,
    text: m.text,
    user: m.user,
    ...(m.fromBot ? { bot_id: identity.botId, app_id: identity.appId } : {}),
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(m.files.length ? { files: m.files.map((id) => fileJson(ctx, ctx.workspace.files.get(id)!)) } : {}),
  };
}

export function fileJson(ctx: MethodContext, file: SlackFile): Record<string, unknown> {
  const { teamId } = ctx.workspace.identity;
  return {
    id: file.id,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.name.split('.').pop() ?? 'binary',
    size: file.content.length,
    user: file.user,
    url_private: `${ctx.origin}/files-pri/${teamId}-${file.id}/${encodeURIComponent(file.name)}`,
    url_private_download: `${ctx.origin}/files-pri/${teamId}-${file.id}/download/${encodeURIComponent(file.name)}`,
  };
}

function post(ctx: MethodContext, params: Params): Record<string, unknown> {
  const channel = memberChannel(ctx, params);
  const text = str(params, 'text');
  const blocks = parseBlocks(params.blocks);
  checkText(text);
  if (text === undefined && !blocks) throw new SlackError('no_text');
  const threadTs = str(params, 'thread_ts');
  if (threadTs !== undefined && !ctx.workspace.message(channel.id, threadTs)) throw new SlackError('thread_not_found');
  const message = ctx.workspace.store({
    channel: channel.id,
    ts: ctx.workspace.nextTs(),
    user: ctx.workspace.identity.botUserId,
    fromBot: true,
    text: text ?? '',
    ...(blocks ? { blocks } : {}),
    ...(threadTs ? { threadTs } : {}),
  });
  // The bot's reply in a thread takes its status away, as Slack's does.
  if (threadTs) ctx.workspace.setThreadStatus(channel.id, threadTs, '');
  return { channel: channel.id, ts: message.ts, message: messageJson(ctx, message) };
}

/** assistant.threads.setStatus: the thread's status under its last message while the bot works; `''` takes it away. */
function threadStatus(ctx: MethodContext, params: Params): Record<string, unknown> {
  const channel = channelOf(ctx, params, 'channel_id');
  const threadTs = str(params, 'thread_ts');
  const root = threadTs === undefined ? undefined : ctx.workspace.message(channel.id, threadTs);
  if (!root || root.deleted) throw new SlackError('invalid_thread_ts');
  if (typeof params.status !== 'string') throw new SlackError('invalid_arguments');
  ctx.workspace.setThreadStatus(channel.id, threadTs!, params.status);
  return {};
}

function update(ctx: MethodContext, params: Params): Record<string, unknown> {
  const message = ownMessage(ctx, params, 'cant_update_message');
  const text = str(params, 'text');
  checkText(text);
  const blocks = parseBlocks(params.blocks);
  if (text !== undefined) message.text = text;
  // Slack keeps the blocks unless the update names new ones; an empty list clears them.
  if (params.blocks !== undefined) {
    if (blocks?.length) message.blocks = blocks;
    else delete message.blocks;
  }
  message.edits++;
  ctx.workspace.changes.notify();
  return { channel: message.channel, ts: message.ts, text: message.text, message: messageJson(ctx, message) };
}

function remove(ctx: MethodContext, params: Params): Record<string, unknown> {
  const message = ownMessage(ctx, params, 'cant_delete_message');
  message.deleted = true;
  ctx.workspace.changes.notify();
  return { channel: message.channel, ts: message.ts };
}

function ephemeral(ctx: MethodContext, params: Params): Record<string, unknown> {
  const channel = memberChannel(ctx, params);
  const user = str(params, 'user') ?? '';
  if (!channel.members.has(user)) throw new SlackError('user_not_in_channel');
  const text = str(params, 'text') ?? '';
  checkText(text);
  const blocks = parseBlocks(params.blocks);
  const threadTs = str(params, 'thread_ts');
  const ts = ctx.workspace.nextTs();
  ctx.workspace.ephemeral.push({ channel: channel.id, user, text, ts, ...(blocks ? { blocks } : {}), ...(threadTs ? { threadTs } : {}) });
  ctx.workspace.changes.notify();
  return { message_ts: ts };
}

function react(ctx: MethodContext, params: Params): Record<string, unknown> {
  const channel = channelOf(ctx, params);
  const message = ctx.workspace.message(channel.id, str(params, 'timestamp') ?? '');
  if (!message || message.deleted) throw new SlackError('message_not_found');
  const name = str(params, 'name');
  if (!name) throw new SlackError('invalid_name');
  const bot = ctx.workspace.identity.botUserId;
  const reaction = message.reactions.find((r) => r.name === name) ?? message.reactions[message.reactions.push({ name, users: [] }) - 1]!;
  if (reaction.users.includes(bot)) throw new SlackError('already_reacted');
  reaction.users.push(bot);
  ctx.workspace.changes.notify();
  return {};
}

function conversationInfo(ctx: MethodContext, params: Params): Record<string, unknown> {
  const channel = channelOf(ctx, params);
  return {
    channel: {
      id: channel.id,
      name: channel.name,
      is_im: channel.isIm,
      is_channel: !channel.isIm && !channel.isPrivate,
      is_group: !channel.isIm && channel.isPrivate,
      is_private: channel.isPrivate,
      is_member: channel.members.has(ctx.workspace.identity.botUserId),
      ...(channel.user ? { user: channel.user } : {}),
    },
  };
}

function conversationMembers(ctx: MethodContext, params: Params): Record<string, unknown> {
  const channel = channelOf(ctx, params);
  // Private channels and DMs are listed only to members.
  if (channel.isPrivate && !channel.members.has(ctx.workspace.identity.botUserId)) throw new SlackError('channel_not_found');
  const all = [...channel.members];
  const limit = Math.min(Number(str(params, 'limit') ?? 100) || 100, 1000);
  const from = Number(str(params, 'cursor') ?? 0) || 0;
  const page = all.slice(from, from + limit);
  const next = from + limit < all.length ? String(from + limit) : '';
  return { members: page, response_metadata: { next_cursor: next } };
}

function userInfo(ctx: MethodContext, params: Params): Record<string, unknown> {
  const user = ctx.workspace.users.get(str(params, 'user') ?? '');
  if (!user) throw new SlackError('user_not_found');
  const isBot = user.id === ctx.workspace.identity.botUserId;
  return {
    user: {
      id: user.id,
      team_id: ctx.workspace.identity.teamId,
      name: user.name,
      real_name: user.realName,
      is_bot: isBot,
      profile: { display_name: user.displayName, real_name: user.realName },
    },
  };
}

function uploadUrl(ctx: MethodContext, params: Params): Record<string, unknown> {
  const filename = str(params, 'filename');
  const length = Number(str(params, 'length'));
  if (!filename) throw new SlackError('invalid_arguments');
  if (!Number.isInteger(length) || length < 0) throw new SlackError('invalid_arguments');
  const id = ctx.workspace.newId('F');
  ctx.workspace.files.set(id, {
    id,
    name: filename,
    title: filename,
    mimetype: mimeOf(filename),
    content: Buffer.alloc(0),
    shared: false,
    user: ctx.workspace.identity.botUserId,
  });
  return { upload_url: `${ctx.origin}/upload/v1/${id}`, file_id: id };
}

function completeUpload(ctx: MethodContext, params: Params): Record<string, unknown> {
  const raw = typeof params.files === 'string' ? (JSON.parse(params.files) as unknown) : params.files;
  if (!Array.isArray(raw) || !raw.length) throw new SlackError('invalid_arguments');
  const files = raw.map((f: { id?: string; title?: string }) => {
    const file = ctx.workspace.files.get(f.id ?? '');
    if (!file || file.shared) throw new SlackError('file_not_found');
    if (f.title) file.title = f.title;
    return file;
  });
  const channelId = str(params, 'channel_id');
  let shares: Record<string, unknown> = {};
  if (channelId) {
    const channel = memberChannel(ctx, params, 'channel_id');
    const threadTs = str(params, 'thread_ts');
    const comment = str(params, 'initial_comment') ?? '';
    checkText(comment);
    const message = ctx.workspace.store({
      channel: channel.id,
      ts: ctx.workspace.nextTs(),
      user: ctx.workspace.identity.botUserId,
      fromBot: true,
      text: comment,
      files: files.map((f) => f.id),
      ...(threadTs ? { threadTs } : {}),
    });
    shares = { [channel.isPrivate ? 'private' : 'public']: { [channel.id]: [{ ts: message.ts, ...(threadTs ? { thread_ts: threadTs } : {}) }] } };
  }
  for (const file of files) file.shared = true;
  ctx.workspace.changes.notify();
  return { files: files.map((f) => ({ ...fileJson(ctx, f), shares })) };
}

function mimeOf(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase();
  return (
    ({ png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', txt: 'text/plain', md: 'text/markdown', pdf: 'application/pdf' } as Record<string, string>)[
      ext ?? ''
    ] ?? 'application/octet-stream'
  );
}

/** The Web API methods the twin serves. */
export const METHODS: Readonly<Record<string, Method>> = {
  'auth.test': (ctx) => {
    const { identity } = ctx.workspace;
    return {
      url: `https://${identity.teamName}.slack.com/`,
      team: identity.teamName,
      user: identity.botName,
      team_id: identity.teamId,
      user_id: identity.botUserId,
      bot_id: identity.botId,
      is_enterprise_install: false,
    };
  },
  'apps.connections.open': (ctx) => ({ url: `${ctx.origin.replace(/^http/, 'ws')}/link/?ticket=${ctx.ticket()}&app_id=${ctx.workspace.identity.appId}` }),
  'chat.postMessage': post,
  'chat.update': update,
  'chat.delete': remove,
  'chat.postEphemeral': ephemeral,
  'reactions.add': react,
  'assistant.threads.setStatus': threadStatus,
  'conversations.info': conversationInfo,
  'conversations.members': conversationMembers,
  'users.info': userInfo,
  'files.getUploadURLExternal': uploadUrl,
  'files.completeUploadExternal': completeUpload,
};
