import type { Conversation, ConversationTurn, TurnStep } from '../../../work/transcripts/conversation.ts';
import { parseMarkdown } from '../../../work/presentation/format/index.ts';
import { spansOf, type WebSpan } from '../chat/web-message.ts';

/** A shared conversation as its page shows it: the agent's words as styled text (never markup), tool calls as they are. */
export interface SharedView extends Omit<Conversation, 'turns'> {
  turns: (Omit<ConversationTurn, 'steps' | 'answer'> & {
    steps: (Exclude<TurnStep, { kind: 'text' }> | { kind: 'text'; spans: WebSpan[]; nested?: true })[];
    answer?: WebSpan[];
  })[];
}

export function sharedView(conversation: Conversation): SharedView {
  return {
    ...conversation,
    turns: conversation.turns.map(({ steps, answer, ...turn }) => ({
      ...turn,
      steps: steps.map((step) =>
        step.kind === 'text' ? { kind: 'text' as const, spans: spansOf(parseMarkdown(step.text)), ...(step.nested ? { nested: true as const } : {}) } : step,
      ),
      ...(answer ? { answer: spansOf(parseMarkdown(answer)) } : {}),
    })),
  };
}
