import type { FakeMattermost } from './fake-mattermost.ts';
import { MAX_FILE_BYTES, MAX_POST_RUNES, MattermostFault, newId, type Post } from './model.ts';

/** What a route answers: JSON, or a file's bytes. */
export type Answer = { json: unknown; status?: number } | { bytes: Buffer; type: string };

type Handler = (mm: FakeMattermost, params: string[], body: Record<string, unknown>, form: FormData | undefined, user: string) => Answer | Promise<Answer>;

const ID = '([a-z0-9]{26})';

/** The API v4 routes the bridge uses, with the server's checks and errors. */
const ROUTES: [method: string, pattern: RegExp, route: string, handler: Handler][] = [
  ['GET', /^\/users\/me$/, 'GET /users/me', (mm, _p, _b, _f, user) => ({ json: mm.user(user) })],
  ['GET', new RegExp(`^/users/${ID}$`), 'GET /users/:id', (mm, [id]) => mm.profile(id!)],
  ['GET', /^\/system\/ping$/, 'GET /system/ping', () => ({ json: { status: 'OK' } })],
  ['GET', new RegExp(`^/posts/${ID}$`), 'GET /posts/:id', (mm, [id], _b, _f, user) => ({ json: wire(mm.postFor(id!, user)) })],
  ['POST', /^\/posts$/, 'POST /posts', (mm, _p, body, _f, user) => ({ json: wire(mm.createPost(user, body)), status: 201 })],
  ['PUT', new RegExp(`^/posts/${ID}/patch$`), 'PUT /posts/:id/patch', (mm, [id], body, _f, user) => ({ json: wire(mm.patchPost(user, id!, body)) })],
  [
    'POST',
    /^\/posts\/ephemeral$/,
    'POST /posts/ephemeral',
    (mm, _p, body, _f, user) => ({ json: wire(mm.createPost(user, body.post as Record<string, unknown>, String(body.user_id))), status: 201 }),
  ],
  ['POST', /^\/reactions$/, 'POST /reactions', (mm, _p, body) => ({ json: mm.react(String(body.post_id), String(body.emoji_name)) })],
  ['POST', /^\/files$/, 'POST /files', (mm, _p, _b, form, user) => ({ json: { file_infos: mm.upload(user, form), client_ids: [] }, status: 201 })],
  ['GET', new RegExp(`^/files/${ID}$`), 'GET /files/:id', (mm, [id], _b, _f, user) => mm.download(id!, user)],
  ['GET', new RegExp(`^/channels/${ID}/posts$`), 'GET /channels/:id/posts', (mm, [id], body, _f, user) => mm.postsSince(id!, Number(body.since ?? 0), user)],
  [
    'GET',
    new RegExp(`^/channels/${ID}/members/${ID}$`),
    'GET /channels/:id/members/:user',
    (mm, [channel, member], _b, _f, user) => mm.membership(channel!, member!, user),
  ],
];

export function route(method: string, path: string): { route: string; handler: Handler; params: string[] } | undefined {
  for (const [m, pattern, name, handler] of ROUTES) {
    const match = m === method ? pattern.exec(path) : null;
    if (match) return { route: name, handler, params: match.slice(1) };
  }
  return undefined;
}

/** A post as the API answers it: integrations stripped from its buttons, as the server keeps them from clients. */
export function wire(post: Post): Record<string, unknown> {
  const { versions: _versions, ephemeralTo: _to, ...rest } = post;
  const attachments = (post.props.attachments as { actions?: { integration?: unknown }[] }[] | undefined)?.map((a) => ({
    ...a,
    ...(a.actions ? { actions: a.actions.map(({ integration: _i, ...action }) => action) } : {}),
  }));
  return { ...rest, props: { ...post.props, ...(attachments ? { attachments } : {}) } };
}

/** The server's checks of a post's message: its length in characters. */
export function checkMessage(message: unknown): string {
  if (typeof message !== 'string') throw new MattermostFault(400, 'api.context.invalid_body_param.app_error', 'Invalid or missing post in request body.');
  if ([...message].length > MAX_POST_RUNES)
    throw new MattermostFault(
      400,
      'model.post.is_valid.message_length.app_error',
      `Post Message property is longer than the maximum permitted length of ${MAX_POST_RUNES} characters.`,
    );
  return message;
}

export function checkFileSize(size: number): void {
  if (size > MAX_FILE_BYTES) throw new MattermostFault(413, 'api.file.upload_file.too_large_detailed.app_error', 'Unable to upload file. File is too large.');
}

export { newId };
