import type { ApprovalBroker } from '../../work/approvals/approval-broker.ts';
import { mainAsker, runAsker, type Asker } from '../../work/approvals/asker.ts';
import type { PermissionMode } from '../../kernel/policy/permission-mode.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { PermissionDecision } from '../../kernel/protocols/events.ts';
import { PLAN_TOOL, type PermissionAnswerer, type PermissionRequest } from '../../engine/session/live-cli.ts';
import type { RunPermissions } from '../../work/subagents/run-executor.ts';
import { QUESTION_TOOL, type AgentQuestions } from './agent-questions.ts';
import type { ChatPermissions } from '../session/chat-session.ts';

/** The tool a CLI enters plan mode with on its own: it changes nothing, so it is never asked about. */
const ENTER_PLAN_TOOL = 'EnterPlanMode';

interface Parts {
  approvals: ApprovalBroker;
  questions: AgentQuestions;
}

/** Whose request it is: where its chat is, the mode it works in, and who asks when a person decides. */
interface Requester {
  address: ChatRef;
  mode: PermissionMode;
  asker: () => Asker;
  /** A plan was approved: the chat stops planning. */
  planApproved?: () => Promise<void>;
}

/**
 * How the bridge answers a CLI's permission requests on its control channel: the agent's
 * questions and plans go to the chat as buttons in every mode; any other tool runs in
 * `bypass`, is asked about with Allow / Deny in `ask` (the approval broker, with its audit,
 * the run's policy and "allow for this session"), and is refused in `safe`, where only what
 * needs no permission (reading) runs.
 */
async function answer(parts: Parts, who: Requester, request: PermissionRequest, turn: Parameters<PermissionAnswerer>[1]): Promise<PermissionDecision> {
  const { tool, input } = request;
  if (tool === QUESTION_TOOL) return parts.questions.ask(who.address, input, turn.signal);
  if (tool === PLAN_TOOL) {
    const decision = await parts.questions.plan(who.address, planOf(request.callInput), turn.signal);
    if (decision.behavior === 'allow') await who.planApproved?.();
    return decision;
  }
  if (tool === ENTER_PLAN_TOOL) return { behavior: 'allow', updatedInput: input };
  if (who.mode === 'safe') return { behavior: 'deny', message: `This chat only reads (/permissions safe), so ${tool} was refused.` };
  // Bypass runs without asking, but for what a rule of the tool policy covers: that is asked in every mode.
  return parts.approvals.decide(who.asker(), tool, input, who.mode);
}

/** A chat's main session: by the chat's mode. */
export function chatPermissions(parts: Parts): ChatPermissions {
  return (chat, request, turn) =>
    answer(
      parts,
      {
        address: chat.address,
        mode: chat.effectivePermissionMode,
        asker: () =>
          mainAsker(chat.address, chat.adapter.name, {
            hold: () => turn.hold(),
            onWaiting: (tools) => chat.current?.presenter.showWaiting(tools),
            grantHolder: chat.turnGrantHolder(),
            startedBy: chat.current?.startedBy,
          }),
        planApproved: () => chat.set({ planning: false }),
      },
      request,
      turn,
    );
}

/**
 * A run started with `--ask`: it asks for every tool its policy does not allow. A run of a CLI
 * that is always live (an ACP agent) asks here whatever its policy, answered by it: read-only
 * refuses, no `--ask` allows but for what a rule of the tool policy covers.
 */
export function runPermissions(parts: Parts): RunPermissions {
  return (run, request, turn) => {
    const mode = run.policy?.readOnly ? 'safe' : run.policy?.approvals ? 'ask' : 'bypass';
    return answer(parts, { address: run.chat, mode, asker: () => runAsker(run, () => turn.hold()) }, request, turn);
  };
}

/** The plan's text: in the tool call's input (the permission request carries none). */
function planOf(callInput: unknown): string {
  const plan = typeof callInput === 'object' && callInput !== null ? (callInput as { plan?: unknown }).plan : undefined;
  return typeof plan === 'string' ? plan : '';
}
