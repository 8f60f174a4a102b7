import type { TurnContext } from 'botbuilder';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/build.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import { pressedData } from './cards.ts';
import type { KeptStrings } from '../serving/kept-strings.ts';
import { attachmentsOf } from './downloads.ts';
import { commandNames, isFirst } from '../serving/incoming.ts';
import { teamsChat } from './id.ts';
import { chatTitle, coreText, teamsPerson } from './incoming.ts';
import type { TeamsOutbound } from './outbound.ts';
import { FILE_CONSENT_INVOKE } from './file-consent.ts';

/** Activity ids remembered, so one the Bot Framework delivers again is not answered twice. */
const SEEN_ACTIVITIES = 2000;

/**
 * The bot's turn, once the adapter has checked the activity: a message goes to the core (a
 * press of a card's button, a messageBack, to its buttons), in order per chat, after the
 * activity is answered, so the Bot Framework never waits on a turn; a file consent's answer
 * goes to the outbound, which holds the file. Every activity tells where
 * its conversation's connector is, kept for answering later.
 */
export function teamsBot(parts: { host: TransportHost; conversations: KeptStrings; out: TeamsOutbound; log: Log }): (context: TurnContext) => Promise<void> {
  const { host, conversations, out, log } = parts;
  const inOrder = new KeyedSerializer();
  const seen = new Set<string>();
  const later = (key: string, work: () => Promise<void>) =>
    void inOrder.run(key, work).catch((error: unknown) => log.error({ err: error, chat: key }, 'handling a Teams message failed'));

  return async (context) => {
    const activity = context.activity;
    const address = teamsChat(activity.conversation.id);
    if (conversations.get(address.chat) !== activity.serviceUrl) await conversations.set(address.chat, activity.serviceUrl);
    out.knowName(activity.recipient?.name);
    const consent = activity.type === 'invoke' && activity.name === FILE_CONSENT_INVOKE;
    if (activity.type !== 'message' && !consent) return;
    // A person's answer to a file's consent card: acknowledged at once (Teams waits on it), the upload after.
    if (consent) await context.sendActivity({ type: 'invokeResponse', value: { status: 200 } });
    if (activity.id && !isFirst(seen, activity.id, SEEN_ACTIVITIES)) return;
    if (consent) return later(`file:${chatKey(address)}`, () => out.consented(address, activity.value));
    const user = teamsPerson(activity);
    if (!user) return;
    const data = pressedData(activity.value);
    if (data !== undefined) {
      const messageId = activity.replyToId;
      if (!messageId) return;
      later(`press:${chatKey(address)}`, async () => {
        const answer = await host.handleButton({ address, user, data, messageId });
        if (answer.text) await out.send(address, plain(answer.text));
      });
      return;
    }
    const attachments = attachmentsOf(activity.attachments);
    const text = coreText(activity, commandNames(host));
    const title = chatTitle(activity);
    later(`message:${chatKey(address)}`, () =>
      host.handleMessage({
        address,
        user,
        text,
        ...(activity.id ? { messageId: activity.id } : {}),
        ...(attachments.length ? { attachments } : {}),
        ...(activity.conversation.conversationType === 'personal' ? { private: true } : {}),
        ...(title ? { chatTitle: title } : {}),
      }),
    );
  };
}
