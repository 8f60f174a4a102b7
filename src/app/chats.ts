import type { HostQuestions } from '../work/approvals/host-questions.ts';
import { chatEgressQuestions } from '../chat/session/chat-egress.ts';
import { cliAgents } from '../engine/agents/cli-agents.ts';
import { chatPermissions } from '../chat/agent/agent-permissions.ts';
import { ChatSessions } from '../chat/session/chat-sessions.ts';
import type { ChatSession } from '../chat/session/chat-session.ts';
import { ruledAgents } from '../kernel/policy/approval-rules.ts';
import { credentialGate } from './checks/credential-gate.ts';
import { userKey } from '../kernel/ports/chat.ts';
import { warnIfFails } from '../kernel/log/logger.ts';
import { plain } from '../kernel/rich/index.ts';
import type { LivePool } from '../engine/session/live-pool.ts';
import type { RemoteSessions } from '../work/workers/remote-sessions.ts';
import { WEB, webIdentityOf } from '../surfaces/web/chat/web-chat.ts';
import type { CommonParts } from './parts.ts';

/** The chats' sessions, each with the bridge's tools for its agent, its directory's trust and agents, and its people asked for approvals. */
export function chatSessions(
  parts: CommonParts & {
    live: LivePool;
    /** Chats' sessions run on workers (BRIDGE_SESSION_WORKERS). */
    remote?: RemoteSessions;
    hostQuestions: HostQuestions;
  },
): ChatSessions {
  const { sessionTools, agents, trusts, remote } = parts;
  const tell = async (chat: ChatSession, text: string) => {
    const replyTo = chat.record.pending?.find((message) => message.id === chat.current?.id)?.messageId;
    await warnIfFails(parts.out.send(chat.address, plain(text), replyTo ? { replyTo } : {}), parts.log, 'a handover line', { chat: chat.record.key });
  };
  return new ChatSessions({
    config: parts.config,
    store: parts.store,
    tools: (chat) =>
      sessionTools.forMainSession({
        address: chat.address,
        adapter: chat.adapter,
        sessionId: () => chat.record.cliSessionId,
        turnBy: () => {
          const id = chat.current?.by;
          if (!id) return undefined;
          // As allowlists hold people: a web chat is named after its person's identity.
          return { id, key: chat.address.transport === WEB ? webIdentityOf(id) : userKey(chat.address.transport, { id }) };
        },
        mode: chat.effectivePermissionMode,
        workdir: chat.record.workdir,
        onApprovalWaiting: (tools) => chat.current?.presenter.showWaiting(tools),
        grantHolder: () => chat.turnGrantHolder(),
      }),
    revokeTools: (chat) => sessionTools.releaseMain(chat.address),
    // Read before each turn: the directory's trust as it is now (a session that may only read never trusts), and the
    // agents enabled there for the Task tool of a CLI that has one (their catalog says the same of trust).
    fresh: async (chat) => {
      const readOnly = chat.effectivePermissionMode === 'safe';
      if (!chat.adapter.options.agents) return { trusted: !readOnly && (await trusts(chat.record.workdir)) };
      const catalog = await agents.catalog(chat.record.workdir, { readOnly });
      return { trusted: catalog.trusted, agents: cliAgents(catalog, chat.adapter.name, ruledAgents(parts.config.approvalRules)) };
    },
    live: parts.live,
    // A host a chat's sandbox refused is in the audit trail, beside the chat's progress.
    onBlocked: (chat, host, why) => void parts.audit.record({ event: 'blocked', chat: chat.record.key, detail: `${host}: ${why}` }),
    // In `ask`, a host not on the list is a question with Allow once / for this session / Deny.
    askHost: chatEgressQuestions({ hosts: parts.hostQuestions, audit: parts.audit }),
    permissions: chatPermissions({ approvals: parts.approvals, questions: parts.questions }),
    // Who took over when a limit stopped the chat's CLI (or which worker, when its own stopped): one line, a reply to the message at work.
    tell,
    // What a CLI lacks is asked where it runs: here, not for a worker, whose credentials are its own.
    ...(remote
      ? { liveProcess: (chat, launch, answer) => remote.process(chat.record.key, launch, answer, (text) => void tell(chat, text)) }
      : { lacks: credentialGate(parts.config.cliEnv) }),
    log: parts.log,
  });
}
