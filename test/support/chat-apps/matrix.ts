import { FakeMatrix, type RoomEvent } from '../fake-matrix/index.ts';
import { shownText } from '../telegram-world.ts';
import type { ChatAppTwin, ChatOnApp, ShownMessage } from './chat-app.ts';

/** The keys of the bridge's buttons, as it reacts with them. */
const KEYS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣', '6️⃣', '7️⃣', '8️⃣', '9️⃣', '🔟'];

/**
 * Matrix's twin as the contract suite drives it. The direct chat is a room of the owner and the
 * bot; a group is a room of the owner, the bot and everyone added, where each message mentions
 * the bot (`m.mentions`, and its name before the text, as Element writes a pill); a group's
 * threads are `m.thread` threads begun by such a message, later ones in them without a mention.
 * Commands are `!status`, as Matrix people write them; a press is a reaction with the button's
 * key.
 */
export async function matrixTwin(given?: FakeMatrix): Promise<ChatAppTwin> {
  const mx = given ?? (await FakeMatrix.start());
  const ada = mx.addUser('ada', 'Ada').userId;
  const bot = mx.bot;
  const people: string[] = [];
  let starts = 0;
  let directRoom: string | undefined;

  const shown = (room: string, thread?: string): ShownMessage[] => mx.botMessages(room, thread).map((event) => shownMessage(mx, event));

  /** A chat of `room` as `user` writes in it: `mention` each message (a group's), in a thread once it has a root. */
  const chat = (
    room: string,
    user: string,
    mention: boolean,
    started?: { root: string; mentioned?: boolean },
  ): ChatOnApp & { as(person: string): ChatOnApp } => {
    const thread = () => started?.root;
    const mentioning = () => mention && !started?.mentioned;
    const addressed = (text: string) => (mentioning() ? { body: `${bot.displayname}: ${text}`, mentions: [bot.userId] } : { body: text });
    const sent = (_event: RoomEvent) => {
      if (started) started.mentioned = true;
    };
    const messages = () => shown(room, thread());
    return {
      id: room,
      say: async (text) => sent(mx.say({ user, room, ...addressed(text), ...(thread() ? { thread: thread()! } : {}) })),
      sendFile: async ({ name, bytes, caption }) =>
        sent(
          mx.sendFile({
            user,
            room,
            name,
            bytes,
            ...(caption ? { caption } : {}),
            ...(thread() ? { thread: thread()! } : {}),
            ...(mentioning() ? { mentions: [bot.userId] } : {}),
          }),
        ),
      command: async (name, args) => sent(mx.say({ user, room, body: `!${name}${args ? ` ${args}` : ''}`, ...(thread() ? { thread: thread()! } : {}) })),
      shown: async () => messages(),
      waitFor: (pattern, timeoutMs = 20_000) => mx.waitFor(() => messages().find((m) => pattern.test(m.text)), timeoutMs),
      press: async (message, label) => {
        const index = message.buttons.findIndex((b) => label.test(b));
        if (index < 0) throw new Error(`no button ${label} on ${message.id}: ${message.buttons.join(', ')}`);
        mx.react(user, room, message.id, KEYS[index]!);
      },
      as: (person) => chat(room, person.slice('matrix:'.length), mention, started),
    };
  };

  return {
    transport: 'matrix',
    env: { MATRIX_HOMESERVER_URL: mx.url, MATRIX_ACCESS_TOKEN: mx.token },
    owner: `matrix:${ada}`,
    direct: () => {
      directRoom ??= mx.createRoom({ creator: ada, members: [bot.userId] }).roomId;
      return chat(directRoom, ada, false);
    },
    addPerson: (name) => {
      const id = mx.addUser(name.toLowerCase(), name).userId;
      people.push(id);
      return `matrix:${id}`;
    },
    group: (n) => {
      const room = mx.createRoom({ creator: ada, name: `group-${n}`, members: [bot.userId, ...people] }).roomId;
      // A thread begins on a message of the room (Element: "Reply in thread"); its first message mentions the bot.
      return { ...chat(room, ada, true), thread: (k) => chat(room, ada, true, { root: mx.say({ user: ada, room, body: `topic ${k}` }).event_id }) };
    },
    calls: () =>
      mx.calls
        .filter((call) => !NOT_COUNTED.has(call.route))
        .map((call) => {
          const text = (call.body?.['m.new_content'] as { body?: unknown } | undefined)?.body ?? call.body?.body;
          return { method: call.route, ...(call.room ? { chat: call.room } : {}), ...(typeof text === 'string' ? { text } : {}), at: call.at };
        }),
    // Each start makes its sync filter anew; its first incremental /sync says the first sync is taken (what came before it is history to a fresh bot).
    async connected() {
      const expected = ++starts;
      await mx.waitFor(() => mx.botClient.syncingSince >= expected, 30_000);
    },
    stop: () => mx.close(),
  };
}

/** Keeping in touch and learning who wrote, where: not what a turn costs. */
const NOT_COUNTED = new Set([
  'GET /sync',
  'GET /versions',
  'GET /account/whoami',
  'GET /profile/:user',
  'GET /pushrules',
  'POST /user/:user/filter',
  'GET /user/:user/filter/:id',
  'GET /user/:user/account_data/:type',
  'GET /capabilities',
  'GET /voip/turnServer',
  'GET /rooms/:room/joined_members',
  'GET /rooms/:room/event/:event',
  'GET /media/config',
]);

/** As a reader sees it: its latest edit, its buttons' line shown as buttons, without the turn's stats line. */
function shownMessage(mx: FakeMatrix, event: RoomEvent): ShownMessage {
  const edits = mx.editsOf(event);
  const content = ((edits.at(-1)?.content['m.new_content'] as Record<string, unknown> | undefined) ?? event.content) as {
    body?: string;
    url?: string;
    filename?: string;
  };
  const { text, buttons } = withButtons(content.body ?? '');
  const media = content.url ? mx.media.get(content.url.split('/').pop()!) : undefined;
  return {
    id: event.event_id,
    text: shownText({ text: content.url ? '' : text }),
    buttons,
    files: media ? [{ name: content.filename ?? media.name, bytes: media.bytes }] : [],
    edits: edits.length,
  };
}

/** The body's last paragraph, when its lines are the bridge's buttons (`1️⃣ ✅ Allow · 2️⃣ ❌ Deny`). */
function withButtons(body: string): { text: string; buttons: string[] } {
  const cut = body.lastIndexOf('\n\n');
  const tail = cut < 0 ? '' : body.slice(cut + 2);
  const items = tail.split('\n').flatMap((line) => line.split(' · '));
  const keyed = items.filter((item) => KEYS.some((key) => item.startsWith(`${key} `)));
  if (!keyed.length) return { text: body, buttons: [] };
  return { text: body.slice(0, cut), buttons: keyed.map((item) => item.slice(item.indexOf(' ') + 1)) };
}
