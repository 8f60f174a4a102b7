import { FakeTeams, type TeamsPerson } from '../fake-teams/index.ts';
import { freePort } from '../free-port.ts';
import { shownText } from '../telegram-world.ts';
import { writtenWith, type ChatAppTwin, type ChatOnApp, type ShownMessage } from './chat-app.ts';
import { startChatAppWorld, type ChatAppWorld } from './world.ts';

/** The bridge serving Teams' twin alone, with the twin at hand for what a test asks of it beyond the contract's view. */
export async function teamsWorld(): Promise<{ teams: FakeTeams; app: ChatAppTwin; world: ChatAppWorld }> {
  const teams = await FakeTeams.start();
  const app = await teamsTwin(teams);
  return { teams, app, world: await startChatAppWorld([app]) };
}

/**
 * Teams' twin as the contract suite drives it. The direct chat is the owner's personal chat
 * with the bot (commands as their bare word, as the app's command menu sends them); a group is
 * a reply chain of a channel, begun by a post mentioning the bot, each later reply mentioning
 * it too (Teams gives a bot only those), commands as `@bot status`; a group's threads are
 * further posts of its channel.
 */
export async function teamsTwin(given?: FakeTeams): Promise<ChatAppTwin> {
  const teams = given ?? (await FakeTeams.start());
  const port = await freePort();
  teams.endpoint = `http://127.0.0.1:${port}`;
  const ada = teams.addPerson('Ada');
  const bot = { id: `28:${teams.appId}`, name: 'Bridge' };
  const mention = `<at>${bot.name}</at>`;

  const from = (person: TeamsPerson) => ({ id: person.id, name: person.name, aadObjectId: person.aadObjectId });
  const shown = (conversation: string): ShownMessage[] =>
    teams.botMessages(conversation).map((m) => {
      const seen = teams.shown(m);
      return { id: m.id, text: shownText({ text: seen.text }), buttons: seen.buttons, files: seen.files, edits: m.edits };
    });

  /** One conversation as `person` uses it, `id` naming it in calls (a reply chain: its channel); `conversation()` is its id once it has one. */
  const chat = (
    id: string,
    conversation: () => string | undefined,
    write: (person: TeamsPerson, text: string, extra?: Record<string, unknown>) => Promise<void>,
    person: TeamsPerson,
    commandText: (name: string, args?: string) => string,
  ): ChatOnApp => {
    const messages = () => {
      const id = conversation();
      return id ? shown(id) : [];
    };
    return {
      id,
      say: (text) => write(person, text),
      sendFile: ({ name, bytes, caption }) => write(person, caption ?? '', { attachments: [teams.sharedFile(name, bytes)] }),
      command: (name, args) => write(person, commandText(name, args)),
      // A personal chat takes `/status` as it is; elsewhere a message reaches the bot only by its mention.
      written: writtenWith(id.startsWith('a:') ? undefined : `@${bot.name} `),
      shown: async () => messages(),
      waitFor: (pattern, timeoutMs = 20_000) => teams.waitFor(() => messages().find((m) => pattern.test(m.text)), timeoutMs),
      press: async (message, label) => {
        const card = teams.message(message.id);
        const action = card && teams.shownCardActions(card).find((a) => label.test(a.title));
        const value = (action?.data as { msteams?: { value?: unknown } } | undefined)?.msteams?.value;
        if (!value) throw new Error(`no button ${label} on message ${message.id}: ${message.buttons.join(', ')}`);
        await send(person, conversation()!, '', { value, replyToId: message.id });
      },
    };
  };

  const send = async (person: TeamsPerson, conversation: string, text: string, extra: Record<string, unknown> = {}) => {
    const channel = conversation.startsWith('19:');
    const status = await teams.deliver({
      type: 'message',
      id: teams.newId(),
      from: from(person),
      recipient: bot,
      conversation: {
        id: conversation,
        tenantId: teams.tenantId,
        conversationType: channel ? 'channel' : 'personal',
        ...(channel ? { isGroup: true } : {}),
      },
      channelData: { tenant: { id: teams.tenantId }, ...(channel ? { channel: { id: conversation.split(';')[0], name: 'General' } } : {}) },
      text,
      ...(channel ? { entities: [{ type: 'mention', text: mention, mentioned: bot }] } : {}),
      ...extra,
    });
    if (status !== 200 && status !== 201) throw new Error(`the bot answered ${status} to an activity`);
  };

  const personal = `a:${ada.aadObjectId}`;
  const direct = () =>
    chat(
      personal,
      () => personal,
      (person, text, extra) => send(person, personal, text, extra),
      ada,
      (name, args) => `${name}${args ? ` ${args}` : ''}`,
    );

  /** A reply chain of `channel`: its first message is a new post mentioning the bot; `as` writes in it as someone else. */
  const chain = (channel: string, started: { root?: string } = {}, person = ada): ChatOnApp & { as(person: string): ChatOnApp } => {
    const conversation = () => (started.root ? `${channel};messageid=${started.root}` : undefined);
    const write = async (who: TeamsPerson, text: string, extra?: Record<string, unknown>) => {
      started.root ??= teams.newId();
      await send(who, conversation()!, `${mention} ${text}`, extra);
    };
    return {
      ...chat(channel, conversation, write, person, (name, args) => `${name}${args ? ` ${args}` : ''}`),
      as: (other) =>
        chain(
          channel,
          started,
          [...teams.people.values()].find((p) => `teams:${p.aadObjectId}` === other),
        ),
    };
  };

  return {
    transport: 'teams',
    env: { ...teams.env(), BRIDGE_WEB_ADDR: `127.0.0.1:${port}` },
    postsTo: `127.0.0.1:${port}`,
    owner: `teams:${ada.aadObjectId}`,
    direct,
    addPerson: (name) => `teams:${teams.addPerson(name).aadObjectId}`,
    group: (n) => {
      const channel = `19:group-${n}-${teams.newId()}@thread.tacv2`;
      return { ...chain(channel), thread: () => chain(channel) };
    },
    calls: () =>
      teams.calls.map((call) => ({ method: call.method, chat: call.conversation.split(';')[0]!, ...(call.text ? { text: call.text } : {}), at: call.time })),
    // The endpoint answers 503 until the bridge serves: a personal chat's update, delivered until taken.
    async connected() {
      await teams.waitFor(
        async () =>
          (await teams
            .deliver({
              type: 'conversationUpdate',
              id: teams.newId(),
              from: from(ada),
              recipient: bot,
              conversation: { id: personal, tenantId: teams.tenantId, conversationType: 'personal' },
              channelData: { tenant: { id: teams.tenantId } },
            })
            .catch(() => 0)) === 200,
        30_000,
      );
    },
    stop: () => teams.close(),
  };
}
