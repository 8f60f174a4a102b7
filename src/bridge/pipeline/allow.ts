import type { Log } from '../../log/logger.ts';
import { chatKey, userKey, type Outbound } from '../../ports/transport.ts';
import type { Allowlist } from '../allowlist.ts';
import { refusal, type RefusalThrottle } from '../refusals.ts';
import { step, type Step } from './compose.ts';
import type { MessageContext } from './context.ts';

/** Only people of BRIDGE_ALLOWED_USERS go on; a stranger is told their id, once in a while. */
export function allow(parts: { allowlist: Allowlist; refusals: RefusalThrottle; out: Outbound; log: Log }): Step<MessageContext> {
  const { allowlist, refusals, out, log } = parts;
  return step('allow', async ({ message }, next) => {
    const { address, user } = message;
    if (allowlist.isAllowed(address, user)) return next();
    if (!refusals.shouldRefuse(userKey(address.transport, user))) return;
    log.warn({ chat: chatKey(address), user: user.id }, 'refused a user not in BRIDGE_ALLOWED_USERS');
    // Not awaited: the chat's members must not wait behind a refusal retried against a flood limit.
    void out
      .send(address, refusal(allowlist.writtenId(address, user)), { replyTo: message.messageId })
      .catch((error: Error) => log.warn({ chat: chatKey(address), user: user.id }, `the refusal failed: ${error.message}`));
  });
}
