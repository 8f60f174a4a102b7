import type { ChatAccess } from '../access/chat-access.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { userKey, wholeChatKey, type ChatRef, type ChatUser } from '../../kernel/ports/chat.ts';

/** Whether this person may answer a question asked in this chat. */
export type MayAnswer = (chat: ChatRef, user: ChatUser) => Promise<boolean>;

/**
 * The people of the question's chat, and the owners: whichever way the answer comes (the
 * chat's buttons, the dashboard, another page), as the chat app itself would allow. A refusal
 * is logged: it is someone trying to answer for a chat that is not theirs.
 */
export function chatPeopleMayAnswer(access: Pick<ChatAccess, 'sees'>, log: Log): MayAnswer {
  return async (chat, user) => {
    const person = userKey(chat.transport, user);
    const may = await access.sees(person, chat);
    if (!may)
      log.warn({ chat: wholeChatKey(chat), user: person }, `${person} tried to answer a question of ${wholeChatKey(chat)}, which is not theirs: refused`);
    return may;
  };
}
