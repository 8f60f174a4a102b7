import { readable } from '../fake-discord/readable.ts';
import { FakeMattermost, MAX_POST_RUNES, type Post } from '../fake-mattermost/index.ts';
import { freePort } from '../free-port.ts';
import { shownText } from '../telegram-world.ts';
import { writtenWith, type ChatAppTwin, type ChatOnApp, type ShownMessage } from './chat-app.ts';

/**
 * Mattermost's twin as the contract suite drives it. The direct chat is the owner's direct
 * channel with the bot; a group is a thread of a channel, begun by a post mentioning the bot,
 * later ones replies in it; commands are `@bot status`, as Mattermost people write them (the
 * server takes `/…` for its own slash commands). Buttons' presses go from the twin to the
 * bridge's web server, which the twin's settings turn on.
 */
export async function mattermostTwin(given?: FakeMattermost): Promise<ChatAppTwin> {
  const mm = given ?? (await FakeMattermost.start());
  const ada = mm.addUser('ada', 'Ada').id;
  const mention = `@${mm.bot.username}`;
  const people: string[] = [];
  const web = `127.0.0.1:${await freePort()}`;
  let sockets = 0;

  const direct = (): ChatOnApp => {
    const channel = mm.directWith(ada).id;
    const shown = () =>
      mm
        .botPosts(channel)
        .filter(visibleTo(ada))
        .map((p) => shownMessage(mm, p));
    return {
      id: channel,
      say: async (text) => void mm.say({ user: ada, channel, text }),
      sendFile: async ({ name, bytes, caption }) => void mm.say({ user: ada, channel, text: caption ?? '', files: [{ name, bytes }] }),
      command: async (name, args) => void mm.say({ user: ada, channel, text: `${mention} ${name}${args ? ` ${args}` : ''}` }),
      written: writtenWith(`${mention} `),
      shown: async () => shown(),
      waitFor: (pattern, timeoutMs = 20_000) => mm.waitFor(() => shown().find((m) => pattern.test(m.text)), timeoutMs),
      press: (message, label) => mm.press({ user: ada, post: message.id, label }),
    };
  };

  /** A thread of `channel`: its first post (mentioning the bot) is its root; `as` writes in it as someone else. */
  const thread = (channel: string, user = ada, started: { root?: string } = {}): ChatOnApp & { as(person: string): ChatOnApp } => {
    const write = (text: string, files?: { name: string; bytes: Buffer }[]) => {
      const root = started.root;
      const sent = mm.say({ channel, user, text: root ? text : `${mention} ${text}`, ...(root ? { rootId: root } : {}), ...(files ? { files } : {}) });
      started.root ??= sent.id;
    };
    const shown = () =>
      started.root
        ? mm
            .botPosts(channel, started.root)
            .filter(visibleTo(user))
            .map((p) => shownMessage(mm, p))
        : [];
    return {
      id: channel,
      say: async (text) => write(text),
      sendFile: async ({ name, bytes, caption }) => write(caption ?? '', [{ name, bytes }]),
      command: async (name, args) => write(`${started.root ? `${mention} ` : ''}${name}${args ? ` ${args}` : ''}`),
      written: writtenWith(`${mention} `),
      shown: async () => shown(),
      waitFor: (pattern, timeoutMs = 20_000) => mm.waitFor(() => shown().find((m) => pattern.test(m.text)), timeoutMs),
      press: (message, label) => mm.press({ user, post: message.id, label }),
      as: (person) => thread(channel, person.slice('mattermost:'.length), started),
    };
  };

  return {
    transport: 'mattermost',
    env: { MATTERMOST_URL: mm.url, MATTERMOST_TOKEN: mm.token, BRIDGE_WEB_ADDR: web },
    owner: `mattermost:${ada}`,
    messageChars: MAX_POST_RUNES,
    direct,
    addPerson: (name) => {
      const id = mm.addUser(name.toLowerCase(), name).id;
      people.push(id);
      return `mattermost:${id}`;
    },
    group: (n) => {
      const channel = mm.addChannel(`group-${n}`, [ada, ...people]).id;
      return { ...thread(channel), thread: () => thread(channel) };
    },
    calls: () =>
      mm.calls
        .filter((call) => !NOT_COUNTED.has(call.route))
        .map((call) => ({
          method: call.route,
          ...(call.chat ? { chat: call.chat } : {}),
          ...(typeof call.body?.message === 'string' ? { text: readable(call.body.message) } : {}),
          at: call.at,
        })),
    // Each start authenticates a socket anew: posts before then would reach no one.
    async connected() {
      const expected = ++sockets;
      await mm.waitFor(() => mm.socket.authentications >= expected && mm.socket.authenticated === 1, 30_000);
    },
    stop: () => mm.close(),
  };
}

/** Learning who the bot is, who wrote and a thread's root: its keeping in touch, not what a turn costs. */
const NOT_COUNTED = new Set(['GET /users/me', 'GET /users/:id', 'GET /posts/:id']);

/** Ephemeral posts show only to the person they are for. */
const visibleTo = (user: string) => (post: Post) => post.ephemeralTo === undefined || post.ephemeralTo === user;

/** As a reader sees it: its Markdown rendered away, without the turn's stats line under an answer. */
function shownMessage(mm: FakeMattermost, post: Post): ShownMessage {
  const attachments = (post.props.attachments as { actions?: { name: string }[] }[] | undefined) ?? [];
  return {
    id: post.id,
    text: shownText({ text: readable(post.message) }),
    buttons: attachments.flatMap((a) => (a.actions ?? []).map((action) => action.name)),
    files: post.file_ids.map((id) => ({ name: mm.files.get(id)?.name ?? '', bytes: mm.files.get(id)?.bytes ?? Buffer.alloc(0) })),
    edits: post.versions.length - 1,
  };
}
