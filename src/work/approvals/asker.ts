import { chatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import type { ToolPolicy } from '../../kernel/policy/tool-policy.ts';
import { displayName, startedBy, type SubagentRunRecord } from '../subagents/record.ts';
import { WHOLE_RUN, type GrantHolder } from './session-grants.ts';

/**
 * Whoever asks the chat before a tool runs: a subagent run under a policy, or a chat's main
 * session in `ask` mode. Open questions, "allow for this session" and the auto-approval
 * counters are kept per asker id.
 */
export interface Asker {
  id: string;
  /** The run it is, for the audit trail. */
  runId?: string;
  chatKey: string;
  address: ChatRef;
  /** How questions name it: `#3 Writer`, or the main session's CLI. */
  title: string;
  /** What "Allow <tool> for this …" lasts for. */
  lifetime: 'run' | 'session';
  /**
   * Whom "Allow <tool> for this …" covers (see GrantHolder). None on a main session's turn no
   * person typed (a webhook, a schedule, an API client, a run's result handed back): such a
   * turn uses no grant and is offered none.
   */
  grantHolder?: GrantHolder;
  policy?: ToolPolicy;
  /** The agent whose work it is (a run's `--agent`), for the tool policy's agent rules. */
  agent?: string;
  /**
   * The person who started the work (`transport:id`, as userKey writes it): who typed the turn,
   * or spawned the run. Where a rule needs several people's Allow, they cannot be the last of them.
   */
  startedBy?: string;
  startedAt?: number;
  /** Pauses the asker's own timeout while a person decides; returns the release. */
  hold?: () => () => void;
  /** The tools now waiting for an answer (none when all are answered), for its progress message. */
  onWaiting?: (tools: string[]) => void;
}

/** One name for an asker everywhere: the broker's questions and the MCP secret it asks with. */
export const askerId = {
  run: (runId: string) => `run-${runId}`,
  main: (address: ChatRef) => `main-${chatKey(address)}`,
};

/** A chat's main session as it asks: `title` names its CLI. */
export function mainAsker(address: ChatRef, title: string, extra: Pick<Asker, 'hold' | 'onWaiting' | 'grantHolder' | 'startedBy'> = {}): Asker {
  return { id: askerId.main(address), chatKey: chatKey(address), address, title, lifetime: 'session', ...extra };
}

export function runAsker(run: SubagentRunRecord, hold: () => () => void): Asker {
  return {
    id: askerId.run(run.runId),
    runId: run.runId,
    chatKey: run.requesterKey,
    address: run.chat,
    title: `#${run.number} ${displayName(run)}`,
    lifetime: 'run',
    grantHolder: WHOLE_RUN,
    policy: run.policy,
    agent: run.agent,
    startedBy: startedBy(run),
    startedAt: run.startedAt,
    hold,
  };
}
