import type { IncomingMessage, ServerResponse } from 'node:http';
import { boundaryOf, parseMultipart } from '../fake-telegram/multipart.ts';
import type { Changes } from '../fake-telegram/changes.ts';
import type { CallLog, RecordedCall } from './call-log.ts';
import {
  alreadyAcknowledged,
  cannotEditOthers,
  DiscordError,
  missingAccess,
  notFound,
  unauthorized,
  unknownChannel,
  unknownGuild,
  unknownInteraction,
  unknownMember,
  unknownMessage,
  unknownWebhook,
} from './discord-error.ts';
import type { Gateway } from './gateway.ts';
import { INTERACTION_ANSWER_MS, INTERACTION_TOKEN_MS, type InteractionRecord, type Interactions } from './interactions.ts';
import { checkMessage } from './message-limits.ts';
import { guildDispatch, messageDispatch } from './dispatches.ts';
import type { RateLimits } from './rate-limits.ts';
import { ChannelType, type AttachmentRecord, type MessageRecord, type World } from './world.ts';

export interface RouterDeps {
  token: string;
  world: World;
  calls: CallLog;
  changes: Changes;
  gateway: Gateway;
  interactions: Interactions;
  rateLimits: RateLimits | undefined;
  origin: () => string;
  /** GET /applications/@me's flags (the Message Content intent's switch among them). */
  applicationFlags: () => number;
  /** Answers wait this long first (a slow network, for a test of timing). */
  delayMs: () => number;
}

interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  params: string[];
  body: Record<string, unknown> | undefined;
  files: { field: string; filename: string; contentType: string; bytes: Buffer }[];
}

type Handler = (req: Request) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;

const API = '/api/v10';
/** The application's Message Content switches (either one granted). */
const MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19);

/**
 * Discord's REST API (v10) over the fake's world: the routes the bridge uses, answered as
 * Discord answers them, errors and limits included. Interaction callbacks and webhooks need
 * no bot token (Discord checks their token in the path); everything else does.
 */
export function createRequestListener(deps: RouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const routes = buildRoutes(deps);
  return (req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error), code: 0 }));
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readAll(req);
    // A file people sent, on the "CDN": no token, as Discord's attachment URLs need none.
    const cdn = /^\/attachments\/(\d+)\/(\d+)\/[^/]+$/.exec(url.pathname);
    if (req.method === 'GET' && cdn) {
      const file = deps.world.files.get(cdn[2]!);
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.bytes.length) });
      return void res.end(file.bytes);
    }
    if (!url.pathname.startsWith(`${API}/`)) return reply(res, undefined, notFound());
    // discord.js writes `@me` as `%40me`, and an emoji percent-encoded: routes match the decoded path.
    const path = decodeURIComponent(url.pathname.slice(API.length));
    const { body, files } = decode(req.headers['content-type'] ?? '', raw);
    const call = deps.calls.begin(
      req.method ?? 'GET',
      path,
      body,
      files.map((f) => ({ field: f.field, filename: f.filename, size: f.bytes.length })),
    );
    const delay = deps.delayMs();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const match = routes.find((r) => r.method === req.method && r.pattern.test(path));
    if (!match) return reply(res, call, notFound());
    call.route = `${match.method} ${match.name}`;
    if (match.auth && req.headers.authorization !== `Bot ${deps.token}`) return reply(res, call, unauthorized());
    const params = match.pattern.exec(path)!.slice(1);
    let headers: Record<string, string> = {};
    if (match.limited && deps.rateLimits) {
      const verdict = deps.rateLimits.check(match.name, params[0] ?? '');
      if (verdict.refused) return reply(res, call, verdict.refused);
      headers = verdict.headers;
    }
    try {
      const answer = await match.handler({ method: req.method!, path, query: url.searchParams, params, body, files });
      res.writeHead(answer.status, { ...headers, ...(answer.body !== undefined ? { 'content-type': 'application/json' } : {}) });
      res.end(answer.body !== undefined ? JSON.stringify(answer.body) : undefined);
      deps.calls.finish(call, answer.status, answer.body);
    } catch (error) {
      if (!(error instanceof DiscordError)) throw error;
      reply(res, call, error, headers);
    }
  }

  function reply(res: ServerResponse, call: RecordedCall | undefined, error: DiscordError, headers: Record<string, string> = {}): void {
    res.writeHead(error.status, { ...headers, ...error.headers, 'content-type': 'application/json' });
    res.end(JSON.stringify(error.body()));
    if (call) deps.calls.finish(call, error.status, { code: error.code, message: error.message });
  }
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** JSON, or multipart with `payload_json` and `files[n]` parts (what discord.js sends with uploads). */
function decode(contentType: string, raw: Buffer): { body: Record<string, unknown> | undefined; files: Request['files'] } {
  if (raw.length === 0) return { body: undefined, files: [] };
  if (/^multipart\/form-data/i.test(contentType)) {
    const parts = parseMultipart(raw, boundaryOf(contentType) ?? '');
    const json = parts.find((p) => p.name === 'payload_json');
    const files = parts
      .filter((p) => p.filename !== undefined)
      .map((p) => ({ field: p.name, filename: p.filename!, contentType: p.contentType ?? 'application/octet-stream', bytes: Buffer.from(p.body) }));
    return { body: json ? (JSON.parse(json.body.toString('utf8')) as Record<string, unknown>) : {}, files };
  }
  return { body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, files: [] };
}

interface Route {
  method: string;
  name: string;
  pattern: RegExp;
  auth: boolean;
  /** Counted against the channel's message bucket, when limits are on. */
  limited: boolean;
  handler: Handler;
}

function buildRoutes(deps: RouterDeps): Route[] {
  const { world } = deps;
  const route = (method: string, name: string, handler: Handler, { auth = true, limited = false } = {}): Route => ({
    method,
    name,
    pattern: new RegExp(`^${name.replace(/:\w+/g, '([^/]+)')}$`),
    auth,
    limited,
    handler,
  });
  const ok = (body?: unknown, status = 200) => ({ status: body === undefined ? 204 : status, body });

  const channelOf = (id: string) => {
    const channel = world.channels.get(id);
    if (!channel) throw unknownChannel();
    if (!channel.botCanSee) throw missingAccess();
    return channel;
  };
  const messageIn = (channelId: string, id: string): MessageRecord => {
    channelOf(channelId);
    const message = world.messages.get(id);
    if (!message || message.deleted || message.channelId !== channelId) throw unknownMessage();
    return message;
  };
  const attachmentsOf = (channelId: string, files: Request['files']): AttachmentRecord[] =>
    files.map((f) => world.storeFile(channelId, deps.origin(), { bytes: f.bytes, filename: f.filename, contentType: f.contentType }));

  /** A new message from the bot (or its interaction's reply), dispatched as Discord echoes the bot's own messages. */
  const create = (channelId: string, body: Record<string, unknown>, files: Request['files'], extra: Partial<MessageRecord> = {}): MessageRecord => {
    // A deferred reply is a message with nothing in it yet ("thinking…"): the one empty message Discord makes.
    const problem = checkMessage(body, files.length, { creating: (extra.flags ?? 0) & 128 ? false : true });
    if (problem) throw problem;
    const reference = (body.message_reference as { message_id?: string } | undefined)?.message_id;
    const message = world.addMessage({
      channelId,
      authorId: world.bot.id,
      content: typeof body.content === 'string' ? body.content : '',
      embeds: (body.embeds as unknown[]) ?? [],
      components: (body.components as unknown[]) ?? [],
      attachments: attachmentsOf(channelId, files),
      mentions: [],
      ...(reference && world.messages.get(reference) ? { replyTo: reference } : {}),
      ...(typeof body.flags === 'number' ? { flags: body.flags } : {}),
      ...extra,
    });
    deps.changes.notify();
    if (!message.ephemeralTo) deps.gateway.dispatch('MESSAGE_CREATE', messageDispatch(world, message));
    return message;
  };
  const edit = (message: MessageRecord, body: Record<string, unknown>, files: Request['files']): MessageRecord => {
    const problem = checkMessage(body, files.length, { creating: false });
    if (problem) throw problem;
    if (typeof body.content === 'string') message.content = body.content;
    if (Array.isArray(body.embeds)) message.embeds = body.embeds;
    if (Array.isArray(body.components)) message.components = body.components;
    if (Array.isArray(body.attachments) || files.length) {
      const kept = Array.isArray(body.attachments) ? new Set((body.attachments as { id?: string }[]).map((a) => String(a.id))) : undefined;
      message.attachments = [...message.attachments.filter((a) => !kept || kept.has(a.id)), ...attachmentsOf(message.channelId, files)];
    }
    // Editing away the "thinking…" of a deferred reply.
    message.flags &= ~128;
    message.editedTimestamp = new Date().toISOString();
    message.versions.push(message.content);
    deps.changes.notify();
    return message;
  };
  const interaction = (id: string, token: string): InteractionRecord => {
    const record = deps.interactions.withToken(token);
    if (!record || record.id !== id) throw unknownInteraction();
    return record;
  };
  const webhook = (appId: string, token: string): InteractionRecord => {
    const record = deps.interactions.withToken(token);
    if (appId !== world.applicationId || !record || Date.now() - record.createdAt > INTERACTION_TOKEN_MS) throw unknownWebhook();
    if (record.answeredWith === undefined) throw unknownWebhook();
    return record;
  };

  return [
    route('GET', '/gateway/bot', () =>
      ok({
        url: deps.origin().replace(/^http/, 'ws'),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      }),
    ),
    route('GET', '/gateway', () => ok({ url: deps.origin().replace(/^http/, 'ws') }), { auth: false }),
    route('GET', '/users/@me', () => ok({ ...world.userPayload(world.bot.id), bot: true, verified: true, flags: 0, mfa_enabled: false })),
    route('GET', '/applications/@me', () =>
      ok({
        id: world.applicationId,
        name: world.bot.global_name,
        description: '',
        bot_public: true,
        bot_require_code_grant: false,
        flags: deps.applicationFlags(),
        bot: world.userPayload(world.bot.id),
      }),
    ),
    route('GET', '/channels/:id', ({ params }) => ok(world.channelPayload(channelOf(params[0]!)))),
    route('GET', '/channels/:id/messages', ({ params, query }) => {
      const channel = channelOf(params[0]!);
      const after = query.get('after');
      const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
      // Newest first, as Discord lists them; without the intent, a server's messages as the gateway gives them.
      const hide = (m: MessageRecord) =>
        !(deps.applicationFlags() & MESSAGE_CONTENT_FLAGS) &&
        channel.guildId !== undefined &&
        m.authorId !== world.bot.id &&
        !m.mentions.includes(world.bot.id);
      const listed = world
        .channelMessages(channel.id)
        .filter((m) => !m.ephemeralTo && (after === null || BigInt(m.id) > BigInt(after)))
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      const page = after === null ? listed.slice(-limit) : listed.slice(0, limit);
      return ok(page.reverse().map((m) => world.messagePayload(m, { hideContent: hide(m) })));
    }),
    route('POST', '/channels/:id/typing', ({ params }) => (channelOf(params[0]!), ok())),
    route('POST', '/channels/:id/messages', ({ params, body, files }) => ok(world.messagePayload(create(channelOf(params[0]!).id, body ?? {}, files))), {
      limited: true,
    }),
    route(
      'PATCH',
      '/channels/:id/messages/:mid',
      ({ params, body, files }) => {
        const message = messageIn(params[0]!, params[1]!);
        if (message.authorId !== world.bot.id) throw cannotEditOthers();
        return ok(world.messagePayload(edit(message, body ?? {}, files)));
      },
      { limited: true },
    ),
    route(
      'DELETE',
      '/channels/:id/messages/:mid',
      ({ params }) => {
        const message = messageIn(params[0]!, params[1]!);
        message.deleted = true;
        deps.changes.notify();
        deps.gateway.dispatch('MESSAGE_DELETE', () => ({ id: message.id, channel_id: message.channelId }));
        return ok();
      },
      { limited: true },
    ),
    route('PUT', '/channels/:id/messages/:mid/reactions/:emoji/@me', ({ params }) => {
      const message = messageIn(params[0]!, params[1]!);
      if (!message.reactions.includes(params[2]!)) message.reactions.push(params[2]!);
      deps.changes.notify();
      return ok();
    }),
    route('POST', '/channels/:id/messages/:mid/threads', ({ params, body }) => {
      const message = messageIn(params[0]!, params[1]!);
      const parent = channelOf(params[0]!);
      if (parent.type !== ChannelType.GuildText) throw new DiscordError(400, 50024, 'Cannot execute action on this channel type');
      const thread = {
        id: message.id,
        type: ChannelType.PublicThread,
        name: typeof body?.name === 'string' ? body.name : 'thread',
        guildId: parent.guildId!,
        parentId: parent.id,
        ownerId: world.bot.id,
        botCanSee: true,
      };
      world.channels.set(thread.id, thread);
      deps.gateway.dispatch('THREAD_CREATE', guildDispatch({ ...world.channelPayload(thread), newly_created: true }));
      deps.changes.notify();
      return ok(world.channelPayload(thread), 201);
    }),
    route('GET', '/guilds/:gid', ({ params }) => {
      const guild = world.guilds.get(params[0]!);
      if (!guild) throw unknownGuild();
      return ok({ id: guild.id, name: guild.name, owner_id: guild.ownerId, roles: world.rolesPayload(guild), features: [] });
    }),
    route('GET', '/guilds/:gid/roles', ({ params }) => {
      const guild = world.guilds.get(params[0]!);
      if (!guild) throw unknownGuild();
      return ok(world.rolesPayload(guild));
    }),
    route('GET', '/guilds/:gid/members/:uid', ({ params }) => {
      const guild = world.guilds.get(params[0]!);
      if (!guild) throw unknownGuild();
      if (!guild.members.has(params[1]!)) throw unknownMember();
      return ok(world.memberPayload(guild.id, params[1]!));
    }),
    route('PUT', '/applications/:app/commands', ({ params, body }) => {
      if (params[0] !== world.applicationId) throw missingAccess();
      const list = Array.isArray(body) ? (body as Record<string, unknown>[]) : [];
      const problems = list.flatMap((c, i) => {
        const name = typeof c.name === 'string' ? c.name : '';
        const description = typeof c.description === 'string' ? c.description : '';
        return [
          ...(!/^[-_\p{Ll}\p{N}]{1,32}$/u.test(name)
            ? [{ path: [i, 'name'], code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' }]
            : []),
          ...(description.length < 1 || description.length > 100
            ? [{ path: [i, 'description'], code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }]
            : []),
        ];
      });
      if (list.length > 100) problems.push({ path: [], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' });
      if (problems.length)
        throw new DiscordError(
          400,
          50035,
          'Invalid Form Body',
          Object.fromEntries(problems.map((p) => [p.path.join('.'), { _errors: [{ code: p.code, message: p.message }] }])),
        );
      world.commands = list.map((c) => ({
        id: world.ids.next(),
        name: String(c.name),
        description: String(c.description),
        options: (c.options as unknown[]) ?? [],
        type: Number(c.type ?? 1),
      }));
      deps.changes.notify();
      return ok(world.commands.map((c) => ({ ...c, application_id: world.applicationId, version: c.id })));
    }),
    route(
      'POST',
      '/interactions/:id/:token/callback',
      ({ params, body, files }) => {
        const record = interaction(params[0]!, params[1]!);
        if (Date.now() - record.createdAt > INTERACTION_ANSWER_MS) throw unknownInteraction();
        if (record.answeredWith !== undefined) throw alreadyAcknowledged();
        const type = Number(body?.type);
        const data = (body?.data as Record<string, unknown> | undefined) ?? {};
        const ephemeral = ((Number(data.flags) || 0) & 64) !== 0;
        if (type === 4 || type === 5) {
          const reply = create(record.channelId, type === 5 ? { content: '', flags: 128 | (ephemeral ? 64 : 0) } : data, files, {
            interactionId: record.id,
            flags: (type === 5 ? 128 : 0) | (ephemeral ? 64 : 0),
            ...(ephemeral ? { ephemeralTo: record.userId } : {}),
          });
          record.originalMessageId = reply.id;
        } else if (type === 7) {
          edit(world.messages.get(record.messageId ?? '')!, data, files);
        } else if (type !== 6)
          throw new DiscordError(400, 50035, 'Invalid Form Body', {
            type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: `Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.` }] },
          });
        record.answeredWith = type;
        record.answeredAt = Date.now();
        deps.changes.notify();
        return ok();
      },
      { auth: false },
    ),
    route(
      'PATCH',
      '/webhooks/:app/:token/messages/:mid',
      ({ params, body, files }) => {
        const record = webhook(params[0]!, params[1]!);
        const id = params[2] === '@original' ? record.originalMessageId : params[2];
        const message = id ? world.messages.get(id) : undefined;
        if (!message || message.deleted) throw unknownMessage();
        return ok(world.messagePayload(edit(message, body ?? {}, files)));
      },
      { auth: false },
    ),
    route(
      'POST',
      '/webhooks/:app/:token',
      ({ params, body, files }) => {
        const record = webhook(params[0]!, params[1]!);
        const ephemeral = ((Number(body?.flags) || 0) & 64) !== 0;
        return ok(
          world.messagePayload(create(record.channelId, body ?? {}, files, { interactionId: record.id, ...(ephemeral ? { ephemeralTo: record.userId } : {}) })),
        );
      },
      { auth: false },
    ),
  ];
}
