import type { ChatPeople } from '../../work/access/chat-people.ts';
import type { PeopleSeen } from '../../work/access/people-seen.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import { chatKey, userKey, wholeChatKey, type Outbound } from '../../kernel/ports/chat.ts';
import type { Allowlist } from '../people/allowlist.ts';
import { ALLOWED_ELSEWHERE, deniedHere, refusal, type RefusalThrottle } from '../people/refusals.ts';
import { step, type MessageContext, type Step } from './step.ts';

export interface AllowParts {
  allowlist: Allowlist;
  people: Pick<ChatPeople, 'standing'>;
  seen: Pick<PeopleSeen, 'saw'>;
  refusals: RefusalThrottle;
  out: Outbound;
  log: Log;
}

/**
 * Only people the bridge allows in this chat go on; a stranger is told their id, and someone
 * an admin denied here who did it, once in a while. Everyone's name is noted first, so an admin
 * can name them in /allow.
 */
export function allow(parts: AllowParts): Step<MessageContext> {
  const { allowlist, people, seen, refusals, out, log } = parts;
  return step('allow', async ({ message }, next) => {
    const { address, user } = message;
    seen.saw(address, user);
    if (allowlist.isAllowed(address, user)) return next();
    const person = userKey(address.transport, user);
    const denied = people.standing(address, person);
    const elsewhere = !denied && allowlist.isAllowedAnywhere(person);
    // Once in a while for each thing they are told: a stranger's flood is answered once, but someone an admin
    // has let in elsewhere since is told so.
    const told = denied ? 'denied' : elsewhere ? 'elsewhere' : 'stranger';
    if (!refusals.shouldRefuse(`${person} ${told}${denied ? ` ${wholeChatKey(address)}` : ''}`)) return;
    log.warn(
      { chat: chatKey(address), user: user.id },
      denied ? `refused ${person}, denied in this chat by ${denied.by}` : 'refused a user not in BRIDGE_ALLOWED_USERS',
    );
    const text = denied
      ? deniedHere(denied.byName ?? denied.by)
      : elsewhere
        ? ALLOWED_ELSEWHERE
        : refusal(allowlist.writtenId(address, user), !message.private);
    // Not awaited: the chat's members must not wait behind a refusal retried against a flood limit.
    void warnIfFails(out.send(address, text, { replyTo: message.messageId }), log, 'the refusal', { chat: chatKey(address), user: user.id });
  });
}
