import type { IncomingMessage } from 'node:http';
import type { FakeMatrix } from './fake-matrix.ts';
import { MAX_EVENT_BYTES, MAX_UPLOAD_BYTES, MatrixFault, SERVER, type Call } from './model.ts';
import { clientEvent, LONG_POLL_CAP_MS, syncFor } from './sync.ts';

export interface Context {
  mx: FakeMatrix;
  params: string[];
  body: Record<string, unknown>;
  raw: Buffer;
  query: URLSearchParams;
  user: string;
  call: Call;
  type: string;
  request: IncomingMessage;
}

type Answer = { json?: unknown; bytes?: Buffer; type?: string; status?: number };
type Handler = (c: Context) => Answer | Promise<Answer>;

const C = '/_matrix/client/(?:v3|r0)';
const P = '([^/]+)';

/** The Client-Server API routes the SDK and the bridge use, with the server's checks and errors. */
const ROUTES: [method: string, pattern: RegExp, route: string, handler: Handler, open?: boolean][] = [
  ['GET', /^\/_matrix\/client\/versions$/, 'GET /versions', () => ({ json: { versions: ['v1.11', 'v1.12'], unstable_features: {} } }), true],
  ['GET', re(`${C}/account/whoami`), 'GET /account/whoami', ({ user }) => ({ json: { user_id: user, device_id: 'BRIDGE', is_guest: false } })],
  ['GET', re(`${C}/profile/${P}(?:/displayname)?`), 'GET /profile/:user', ({ mx, params }) => profile(mx, params[0]!)],
  ['GET', re(`${C}/pushrules/?`), 'GET /pushrules', () => ({ json: { global: { override: [], content: [], room: [], sender: [], underride: [] } } })],
  [
    'POST',
    re(`${C}/user/${P}/filter`),
    'POST /user/:user/filter',
    ({ mx, user }) => (user === mx.bot.userId && mx.botClient.starts++, { json: { filter_id: '1' } }),
  ],
  ['GET', re(`${C}/user/${P}/filter/${P}`), 'GET /user/:user/filter/:id', () => ({ json: { room: { timeline: { limit: 10 } } } })],
  ['GET', re(`${C}/user/${P}/account_data/${P}`), 'GET /user/:user/account_data/:type', () => notFound('Account data not found')],
  ['GET', re(`${C}/capabilities`), 'GET /capabilities', () => ({ json: { capabilities: {} } })],
  ['GET', re(`${C}/voip/turnServer`), 'GET /voip/turnServer', () => ({ json: {} })],
  ['GET', re(`${C}/sync`), 'GET /sync', (c) => sync(c)],
  ['PUT', re(`${C}/rooms/${P}/send/${P}/${P}`), 'PUT /rooms/:room/send/:type/:txn', (c) => send(c)],
  ['PUT', re(`${C}/rooms/${P}/redact/${P}/${P}`), 'PUT /rooms/:room/redact/:event/:txn', (c) => redact(c)],
  ['POST', re(`${C}/(?:join|rooms/${P}/join)/?${P}?`), 'POST /join/:room', (c) => join(c)],
  ['POST', re(`${C}/rooms/${P}/leave`), 'POST /rooms/:room/leave', (c) => leave(c)],
  ['GET', re(`${C}/rooms/${P}/event/${P}`), 'GET /rooms/:room/event/:event', ({ mx, params, user }) => event(mx, params[0]!, params[1]!, user)],
  ['GET', re(`${C}/rooms/${P}/joined_members`), 'GET /rooms/:room/joined_members', ({ mx, params, user }) => joinedMembers(mx, params[0]!, user)],
  [
    'GET',
    re(`${C}/rooms/${P}/state/${P}/${P}?`),
    'GET /rooms/:room/state/:type/:key',
    ({ mx, params, user }) => state(mx, params[0]!, params[1]!, params[2] ?? '', user),
  ],
  ['GET', re(`/_matrix/client/v1/rooms/${P}/relations/${P}(?:/${P})?(?:/${P})?`), 'GET /rooms/:room/relations/:event', (c) => relations(c)],
  ['POST', /^\/_matrix\/media\/v3\/upload$/, 'POST /upload', (c) => upload(c)],
  [
    'GET',
    re(`/_matrix/client/v1/media/download/${P}/${P}(?:/${P})?`),
    'GET /media/download/:server/:id',
    ({ mx, params }) => download(mx, params[0]!, params[1]!),
  ],
  ['GET', /^\/_matrix\/(?:client\/v1\/media|media\/v3)\/config$/, 'GET /media/config', () => ({ json: { 'm.upload.size': MAX_UPLOAD_BYTES } })],
];

export function route(method: string, path: string): { route: string; handler: Handler; params: string[]; open: boolean } | undefined {
  for (const [m, pattern, name, handler, open] of ROUTES) {
    const match = m === method ? pattern.exec(path) : null;
    if (match)
      return {
        route: name,
        handler,
        params: match
          .slice(1)
          .filter((p) => p !== undefined)
          .map(decodeURIComponent),
        open: open === true,
      };
  }
  return undefined;
}

function re(path: string): RegExp {
  return new RegExp(`^${path}$`);
}

function notFound(message: string): never {
  throw new MatrixFault(404, 'M_NOT_FOUND', message);
}

function profile(mx: FakeMatrix, userId: string): Answer {
  const user = mx.users.get(userId) ?? notFound('Profile was not found');
  return { json: { displayname: user.displayname } };
}

/** A long poll: answered at once when something is new since `since`, else when something comes, or after the cap. */
async function sync({ mx, query, user, call, request }: Context): Promise<Answer> {
  const since = query.get('since') ?? undefined;
  if (since) call.since = since;
  if (since && user === mx.bot.userId && mx.botClient.syncingSince !== mx.botClient.starts) {
    mx.botClient.syncingSince = mx.botClient.starts;
    mx.changes.notify();
  }
  const from = since ? Number(since.slice(1)) : undefined;
  const filter = query.get('filter') ?? '';
  const limit = filter.startsWith('{') ? Number((JSON.parse(filter) as { room?: { timeline?: { limit?: number } } }).room?.timeline?.limit ?? 10) : 10;
  const wait = Math.min(Number(query.get('timeout') ?? 0), LONG_POLL_CAP_MS);
  const now = syncFor(mx, user, from, limit);
  if (now || wait <= 0) return { json: now ?? empty(mx) };
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      request.off('close', done);
      resolve({ json: syncFor(mx, user, from, limit) ?? empty(mx) });
    };
    const timer = setTimeout(done, wait);
    const stop = mx.changes.subscribe(() => {
      if (syncFor(mx, user, from, limit)) done();
    });
    request.on('close', done);
  });
}

function empty(mx: FakeMatrix): Record<string, unknown> {
  return { next_batch: `s${mx.position}`, rooms: { join: {}, invite: {}, leave: {} } };
}

function send({ mx, params, body, user, call }: Context): Answer {
  const [room, type, txn] = params as [string, string, string];
  call.room = room;
  mx.joined(room, user);
  if (Buffer.byteLength(JSON.stringify(body)) > MAX_EVENT_BYTES) throw new MatrixFault(413, 'M_TOO_LARGE', 'event too large');
  mx.limit.take(user);
  return { json: { event_id: mx.send(user, room, type, body, txn).event_id } };
}

function redact({ mx, params, user, call }: Context): Answer {
  const [room, eventId, txn] = params as [string, string, string];
  call.room = room;
  const target = mx.joined(room, user).events.find((e) => e.event_id === eventId) ?? notFound('Event not found');
  if (target.sender !== user) throw new MatrixFault(403, 'M_FORBIDDEN', 'You cannot redact this event');
  mx.limit.take(user);
  target.content = { redacted: true };
  return { json: { event_id: mx.send(user, room, 'm.room.redaction', { redacts: eventId }, txn).event_id } };
}

/** Joining takes an invite (or a room that is open); M_FORBIDDEN otherwise. */
function join({ mx, params, user, call }: Context): Answer {
  const roomId = params.at(-1)!;
  call.room = roomId;
  const room = mx.rooms.get(roomId) ?? notFound('No known servers');
  const membership = mx.membership(roomId, user);
  if (membership !== 'invite' && membership !== 'join') throw new MatrixFault(403, 'M_FORBIDDEN', 'You are not invited to this room.');
  if (membership === 'invite') mx.append(room, user, 'm.room.member', { membership: 'join', displayname: mx.users.get(user)?.displayname }, user);
  return { json: { room_id: roomId } };
}

function leave({ mx, params, body, user, call }: Context): Answer {
  const roomId = params[0]!;
  call.room = roomId;
  const room = mx.rooms.get(roomId) ?? notFound('Unknown room');
  const membership = mx.membership(roomId, user);
  if (membership !== 'invite' && membership !== 'join') throw new MatrixFault(403, 'M_FORBIDDEN', 'You are not in this room.');
  mx.append(room, user, 'm.room.member', { membership: 'leave', ...(typeof body.reason === 'string' ? { reason: body.reason } : {}) }, user);
  return { json: {} };
}

function event(mx: FakeMatrix, roomId: string, eventId: string, user: string): Answer {
  const found = mx.joined(roomId, user).events.find((e) => e.event_id === eventId) ?? notFound('Event not found.');
  return { json: clientEvent(found) };
}

function joinedMembers(mx: FakeMatrix, roomId: string, user: string): Answer {
  const room = mx.joined(roomId, user);
  const joined = [...room.state.values()].filter((e) => e.type === 'm.room.member' && e.content.membership === 'join');
  return { json: { joined: Object.fromEntries(joined.map((e) => [e.state_key, { display_name: e.content.displayname ?? null }])) } };
}

function state(mx: FakeMatrix, roomId: string, type: string, key: string, user: string): Answer {
  const found = mx.joined(roomId, user).state.get(`${type}\u0000${key}`) ?? notFound('Event not found.');
  return { json: found.content };
}

/** The events relating to one (edits, reactions, a thread's replies), of a relation type when named. */
function relations({ mx, params, user, call }: Context): Answer {
  const [roomId, eventId, relType, eventType] = params as [string, string, string?, string?];
  call.room = roomId;
  const chunk = mx.joined(roomId, user).events.filter((e) => {
    const relation = e.content['m.relates_to'] as { rel_type?: string; event_id?: string } | undefined;
    return relation?.event_id === eventId && (!relType || relation.rel_type === relType) && (!eventType || e.type === eventType);
  });
  return { json: { chunk: chunk.reverse().map(clientEvent) } };
}

function upload({ mx, raw, query, type }: Context): Answer {
  if (raw.length > MAX_UPLOAD_BYTES) throw new MatrixFault(413, 'M_TOO_LARGE', 'Cannot upload files larger than 50.00M');
  const stored = mx.store(query.get('filename') ?? 'upload', type || 'application/octet-stream', raw);
  return { json: { content_uri: `mxc://${SERVER}/${stored.mediaId}` } };
}

function download(mx: FakeMatrix, server: string, mediaId: string): Answer {
  const stored = (server === SERVER ? mx.media.get(mediaId) : undefined) ?? notFound('Not found');
  return { bytes: stored.bytes, type: stored.type };
}
