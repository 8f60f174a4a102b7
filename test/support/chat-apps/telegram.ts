import { FakeTelegram, type FakeMessage } from '../fake-telegram/index.ts';
import { OWNER, shownText } from '../telegram-world.ts';
import { writtenWith, type ChatAppTwin, type ChatOnApp, type ShownMessage } from './chat-app.ts';

/** Who writes: the owner unless told. */
type Writer = { userId: number; firstName: string };

/** Telegram's twin, the fake Bot API, as the contract suite drives it: groups are forums, threads their topics. */
export async function telegramTwin(): Promise<ChatAppTwin> {
  const telegram = await FakeTelegram.start({ botUsername: 'bridge_test_bot' });
  const people = new Map<string, Writer>();
  const chat = (chatId: number, threadId?: number, writer: Writer = { userId: OWNER, firstName: 'Ada' }): ChatOnApp => {
    const where = { chatId, ...writer, ...(threadId !== undefined ? { threadId } : {}) };
    const shown = () => telegram.botMessages(chatId, threadId).map(shownMessage);
    return {
      id: String(chatId),
      say: async (text) => void telegram.sendText({ ...where, text }),
      sendFile: async ({ name, bytes, caption }) =>
        void telegram.sendFile({ ...where, kind: 'document', bytes, fileName: name, ...(caption !== undefined ? { caption } : {}) }),
      command: async (name, args) => void telegram.sendText({ ...where, text: args ? `/${name} ${args}` : `/${name}` }),
      written: writtenWith(),
      shown: async () => shown(),
      waitFor: (pattern, timeoutMs = 20_000) => telegram.waitFor(() => shown().find((message) => pattern.test(message.text)), timeoutMs),
      press: async (message, label) => {
        const button = telegram.message(chatId, Number(message.id))?.buttons.find((b) => label.test(b.text));
        if (!button || !('callback_data' in button)) throw new Error(`no button ${label} on message ${message.id}: ${message.buttons.join(', ')}`);
        telegram.pressButton({ chatId, messageId: Number(message.id), data: button.callback_data, userId: writer.userId });
      },
    };
  };
  return {
    transport: 'telegram',
    env: { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot },
    owner: `telegram:${OWNER}`,
    direct: () => chat(OWNER),
    addPerson: (name) => {
      const userId = 7000 + people.size;
      people.set(`telegram:${userId}`, { userId, firstName: name });
      return `telegram:${userId}`;
    },
    group: (n) => ({
      ...chat(-1001000000000 - n),
      thread: (topic) => chat(-1001000000000 - n, 900_000 + topic * 1000),
      as: (person) => chat(-1001000000000 - n, undefined, people.get(person)),
    }),
    calls: () =>
      telegram.calls
        .filter((call) => !NOT_COUNTED.has(call.method))
        .map((call) => ({
          method: call.method,
          ...(call.params.chat_id !== undefined ? { chat: String(call.params.chat_id as string | number) } : {}),
          ...(typeof (call.params.text ?? call.params.caption) === 'string' ? { text: String(call.params.text ?? call.params.caption) } : {}),
          at: call.time,
        })),
    stop: () => telegram.close(),
  };
}

/** Asking for updates and who the bot is: the bot's keeping in touch, not what a turn costs. */
const NOT_COUNTED = new Set(['getUpdates', 'getMe', 'setMyCommands']);

function shownMessage(message: FakeMessage): ShownMessage {
  const file = message.document ?? message.media;
  return {
    id: String(message.messageId),
    text: shownText(message),
    buttons: message.buttons.map((button) => button.text),
    files: file ? [{ name: file.fileName, bytes: file.bytes }] : [],
    edits: message.editCount,
  };
}
