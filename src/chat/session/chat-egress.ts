import type { AuditLog } from '../../kernel/audit/audit-log.ts';
import type { HostQuestions } from '../../work/approvals/host-questions.ts';
import type { HostVerdict } from '../../engine/sandbox/egress-decision.ts';
import type { ChatParts } from './chat-session.ts';

/**
 * How a chat in `ask` decides a host its sandboxed agent may not reach yet: the question, with
 * the address the host resolves to, goes to the chat while the connection waits (the turn's
 * timeout held meanwhile). Allow once lets that connection through to that address; Allow for
 * this session adds the host and port at that address for the chat's current CLI session
 * (never to /net), so a name resolving elsewhere later is asked about again; Deny or silence
 * refuses, the refusal saying by whom. Every other mode refuses at once.
 */
export function chatEgressQuestions(parts: { hosts: HostQuestions; audit: AuditLog }): NonNullable<ChatParts['askHost']> {
  return (chat, host, port) => {
    if (chat.effectivePermissionMode !== 'ask') return undefined;
    return async (address, gone): Promise<HostVerdict> => {
      const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      const release = chat.agent.holdTimeout();
      try {
        // A turn no person typed (a webhook, a schedule) is offered nothing for the session, as with tools.
        const answer = await parts.hosts.ask(chat.address, chat.adapter.name, { target, address }, chat.current?.by !== undefined, gone);
        if (answer.choice === 'gone') return { allowed: false, why: 'its connection closed before an answer' };
        if (answer.choice === 'deny') return { allowed: false, why: `denied by ${answer.by}` };
        if (answer.choice === 'timeout') return { allowed: false, why: 'nobody answered in time' };
        if (answer.choice === 'session') chat.grants.allowHost({ host: host.toLowerCase(), wildcard: false, port, address });
        void parts.audit.record({
          event: 'egress_allowed',
          chat: chat.record.key,
          by: answer.by,
          detail: `${target} at ${address} ${answer.choice === 'once' ? 'once' : 'for this session'}`,
        });
        return { allowed: true };
      } finally {
        release();
      }
    };
  };
}
