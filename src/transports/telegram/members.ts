import { Api, GrammyError } from 'grammy';
import type { ChatMember } from 'grammy/types';
import { CachedMembers } from '../../work/access/member-cache.ts';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { askedMembers } from '../serving/asked-members.ts';
import { chatIdOf, TELEGRAM } from './id.ts';
import type { TelegramSettings } from './settings.ts';
import { personIdOn } from '../serving/incoming.ts';

/** A look-up waits this long at most: a page is waiting on it. */
const LOOKUP_TIMEOUT_SECONDS = 10;
/** Look-ups under way at once: a page of many chats asks side by side, without a burst Telegram would answer with 429s. */
const LOOKUPS_AT_ONCE = 10;

/**
 * Who is in a Telegram chat: the Bot API lists no members, so each (chat, person) is asked
 * with getChatMember, and the answer kept a while (CachedMembers). A private chat (a positive
 * id: its person's own) is its person's without asking. A 400 or 403 is a definite no (the
 * chat or the person is unknown to the bot, or the bot was removed); anything else (the
 * network, a 5xx, a 429) is "cannot tell now", which callers take as no.
 */
export function telegramMembers({ token, apiRoot }: Required<TelegramSettings>): CachedMembers {
  // Its own client, without the outbound's retries: a page waits on it, and a failure is not cached long.
  const api = new Api(token, { apiRoot, timeoutSeconds: LOOKUP_TIMEOUT_SECONDS });
  return new CachedMembers(membersThrough(api));
}

export function membersThrough(api: Pick<Api, 'getChatMember'>, atOnce = LOOKUPS_AT_ONCE): ChatMembers {
  return askedMembers(
    personId,
    async (chat, user, limited) => {
      const chatId = chatIdOf(chat);
      return chatId > 0 ? chatId === user : isIn(await limited(() => api.getChatMember(chatId, user)));
    },
    (error) => error instanceof GrammyError && (error.error_code === 400 || error.error_code === 403),
    atOnce,
  );
}

/** `telegram:222` → 222; a person of another transport has no Telegram id. */
function personId(person: string): number | undefined {
  const id = personIdOn(TELEGRAM, person, /^\d+$/);
  return id === undefined ? undefined : Number(id);
}

function isIn(member: ChatMember): boolean {
  switch (member.status) {
    case 'creator':
    case 'administrator':
    case 'member':
      return true;
    case 'restricted':
      return member.is_member;
    default:
      return false;
  }
}
