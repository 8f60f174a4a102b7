import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import { chatKey, userKey, type Outbound } from '../../kernel/ports/chat.ts';
import type { Allowlist } from '../people/allowlist.ts';
import { NOT_NAMED_FOR_TURNS, type RefusalThrottle } from '../people/refusals.ts';
import { step, type MessageContext, type Step } from './step.ts';

export interface GroupTurnsParts {
  allowlist: Pick<Allowlist, 'mayStartTurns'>;
  /** Its own throttle: being told once about turns must not silence a later refusal of another kind. */
  turnRefusals: RefusalThrottle;
  out: Outbound;
  log: Log;
}

/**
 * Words for the agent (and files for it) from someone who may not start turns here (a group
 * where BRIDGE_GROUP_TURNS=allowed, and no admin named them with /allow) go no further; they
 * are told why once in a while. Commands go on: each says whether it starts work (see `command`).
 */
export function groupTurns(parts: GroupTurnsParts): Step<MessageContext> {
  const { allowlist, turnRefusals, out, log } = parts;
  return step('group-turns', async ({ message, command }, next) => {
    const { address, user } = message;
    if (command || allowlist.mayStartTurns(address, user, !message.private)) return next();
    if (!turnRefusals.shouldRefuse(userKey(address.transport, user))) return;
    log.info({ chat: chatKey(address), user: user.id }, 'a turn refused: only people named with /allow start turns in this group');
    void warnIfFails(out.send(address, NOT_NAMED_FOR_TURNS, { replyTo: message.messageId }), log, 'the refusal', { chat: chatKey(address) });
  });
}
