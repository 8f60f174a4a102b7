import type { ApprovalBroker } from '../approvals/approval-broker.ts';
import { mainAsker } from '../approvals/asker.ts';
import { PLAN_TOOL } from '../session/live-cli.ts';
import { QUESTION_TOOL, type AgentQuestions } from './agent-questions.ts';
import type { ChatPermissions } from './chat-session.ts';

/** The tool a CLI enters plan mode with on its own: it changes nothing, so it is never asked about. */
const ENTER_PLAN_TOOL = 'EnterPlanMode';

/**
 * How a chat answers its live CLI's permission requests: its questions and plans go to the
 * chat as buttons in every mode; any other tool runs in `bypass`, is asked about with Allow /
 * Deny in `ask` (the approval broker, with its audit and "allow for this session"), and is
 * refused in `safe`, where only what needs no permission (reading) runs.
 */
export function chatPermissions(parts: { approvals: ApprovalBroker; questions: AgentQuestions }): ChatPermissions {
  return async (chat, request, turn) => {
    const { tool, input } = request;
    if (tool === QUESTION_TOOL) return parts.questions.ask(chat.address, input, turn.signal);
    if (tool === PLAN_TOOL) {
      const decision = await parts.questions.plan(chat.address, planOf(request.callInput), turn.signal);
      if (decision.behavior === 'allow') await chat.setPlanning(false);
      return decision;
    }
    if (tool === ENTER_PLAN_TOOL) return { behavior: 'allow', updatedInput: input };
    switch (chat.effectivePermissionMode) {
      case 'bypass':
        return { behavior: 'allow', updatedInput: input };
      case 'safe':
        return { behavior: 'deny', message: `This chat only reads (/permissions safe), so ${tool} was refused.` };
      case 'ask':
        return parts.approvals.decide(
          mainAsker(chat.address, chat.adapter.name, {
            hold: () => turn.hold(),
            onWaiting: (tools) => chat.current?.presenter.showWaiting(tools),
          }),
          tool,
          input,
        );
    }
  };
}

/** The plan's text: in the tool call's input (the permission request carries none). */
function planOf(callInput: unknown): string {
  const plan = typeof callInput === 'object' && callInput !== null ? (callInput as { plan?: unknown }).plan : undefined;
  return typeof plan === 'string' ? plan : '';
}
