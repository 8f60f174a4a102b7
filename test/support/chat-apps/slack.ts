import { COMMANDS } from '../../../src/chat/commands/index.ts';
import { slackAppManifest } from '../../../src/transports/slack/app-manifest.ts';
import { FakeSlack, type StoredMessage } from '../fake-slack/index.ts';
import { shownText } from '../telegram-world.ts';
import { writtenWith, type ChatAppTwin, type ChatOnApp, type ShownMessage } from './chat-app.ts';

/**
 * Slack's twin as the contract suite drives it. The direct chat is the owner's DM with the bot
 * (commands as `/bridge …`); a group is a thread of a channel, begun by a message mentioning the
 * bot, later ones replies in it (commands as `@bot …`, as Slack offers no slash commands in
 * threads); a group's threads are further threads of its channel.
 */
export async function slackTwin(): Promise<ChatAppTwin> {
  const scopes = (slackAppManifest(COMMANDS) as { oauth_config: { scopes: { bot: string[] } } }).oauth_config.scopes.bot;
  const slack = await FakeSlack.start({ scopes });
  const ada = slack.addUser({ name: 'ada', realName: 'Ada Lovelace', displayName: 'Ada' }).id;
  const mention = `<@${slack.botUserId}>`;

  const direct = (): ChatOnApp => {
    const channel = slack.workspace.imWith(ada).id;
    const shown = () => slack.botMessages(channel).map((m) => shownMessage(slack, m));
    return {
      id: channel,
      say: async (text) => void slack.dm({ user: ada, text }),
      sendFile: async ({ name, bytes, caption }) => void slack.dm({ user: ada, text: caption ?? '', files: [{ name, content: bytes }] }),
      command: async (name, args) => void slack.slashCommand({ channel, user: ada, text: args ? `${name} ${args}` : name }),
      written: writtenWith('/bridge '),
      shown: async () => shown(),
      waitFor: (pattern, timeoutMs = 20_000) => slack.waitFor(() => shown().find((m) => pattern.test(m.text)), timeoutMs),
      press: async (message, label) => void slack.pressButton({ channel, ts: message.id, user: ada, text: label }),
    };
  };

  const people: string[] = [];
  /** A thread of `channel`: its first message (mentioning the bot) is its root; `as` writes in it as someone else. */
  const thread = (channel: string, user = ada, started: { root?: string } = {}): ChatOnApp & { as(person: string): ChatOnApp } => {
    const write = (text: string, files?: { name: string; content: Buffer }[]) => {
      const root = started.root;
      const sent = slack.say({
        channel,
        user,
        text: root ? text : `${mention} ${text}`,
        ...(root ? { threadTs: root } : {}),
        ...(files ? { files } : {}),
      });
      started.root ??= sent.message.ts;
    };
    const shown = () => (started.root ? slack.botMessages(channel, started.root).map((m) => shownMessage(slack, m)) : []);
    return {
      id: channel,
      say: async (text) => write(text),
      sendFile: async ({ name, bytes, caption }) => write(caption ?? '', [{ name, content: bytes }]),
      command: async (name, args) => write(started.root ? `${mention} ${name}${args ? ` ${args}` : ''}` : `${name}${args ? ` ${args}` : ''}`),
      written: writtenWith(`@${slack.workspace.identity.botName} `),
      shown: async () => shown(),
      waitFor: (pattern, timeoutMs = 20_000) => slack.waitFor(() => shown().find((m) => pattern.test(m.text)), timeoutMs),
      press: async (message, label) => void slack.pressButton({ channel, ts: message.id, user, text: label }),
      as: (person) => thread(channel, person.slice('slack:'.length), started),
    };
  };

  return {
    transport: 'slack',
    env: { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl },
    owner: `slack:${ada}`,
    direct,
    addPerson: (name) => {
      const id = slack.addUser({ name: name.toLowerCase(), realName: name, displayName: name }).id;
      people.push(id);
      return `slack:${id}`;
    },
    group: (n) => {
      const channel = slack.addChannel({ name: `group-${n}`, members: [ada, ...people] }).id;
      return { ...thread(channel), thread: () => thread(channel) };
    },
    // Socket Mode's apps.connections.open is the bridge keeping in touch, not what a turn costs.
    calls: () =>
      slack.calls
        .filter((call) => call.method !== 'apps.connections.open' && call.method !== 'auth.test')
        .map((call) => ({
          method: call.method,
          ...(typeof (call.params.channel ?? call.params.channel_id) === 'string' ? { chat: String(call.params.channel ?? call.params.channel_id) } : {}),
          ...(typeof (call.params.text ?? call.params.initial_comment) === 'string' ? { text: String(call.params.text ?? call.params.initial_comment) } : {}),
          at: call.time,
        })),
    connected: () => slack.waitFor(() => slack.socket.openConnections === 1, 30_000).then(() => undefined),
    stop: () => slack.close(),
  };
}

/**
 * A style's markers as Slack reads them: an opening one after a space (or a line's start) and
 * a closing one of the same kind before a space or punctuation, on one line. A lone one (the
 * `_` a link's secret may end with) is text.
 */
const STYLED = /(^|[\s(>])([*_~])(?=\S)([^\n]*?\S)\2(?=$|[\s).,:;!?*_~])/gm;

/** mrkdwn as a reader sees it: markers, link targets, fences and escapes rendered away. */
export function readableMrkdwn(text: string): string {
  let unstyled = text.replace(/^```\n?|\n?```$/gm, '').replace(/<([^|>\s]+)\|([^>]+)>/g, '$2');
  // Nested styles (*_both_*) come off one at a time.
  for (let before = ''; before !== unstyled;) {
    before = unstyled;
    unstyled = unstyled.replace(STYLED, '$1$3');
  }
  return unstyled.replace(/`/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function shownMessage(slack: FakeSlack, message: StoredMessage): ShownMessage {
  return {
    id: message.ts,
    text: shownText({ text: readableMrkdwn(message.text) }),
    buttons: slack.buttonsOf(message).map((b) => b.text),
    files: message.files.map((id) => ({ name: slack.workspace.files.get(id)!.name, bytes: slack.fileContent(id)! })),
    edits: message.edits,
  };
}
