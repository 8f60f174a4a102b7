import type { RichText } from '../../../kernel/ports/chat.ts';
import type { Conversation, TurnStep } from '../../../work/transcripts/conversation.ts';
import { spansOf, type WebSpan } from '../chat/web-message.ts';

/** A shared conversation as its page shows it: the agent's words as styled text (never markup), tool calls as they are. */
export interface SharedView extends Omit<Conversation, 'turns'> {
  turns: {
    at: number;
    prompt?: string;
    by?: string;
    steps: (Exclude<TurnStep, { kind: 'text' }> | { kind: 'text'; spans: WebSpan[]; nested?: true })[];
    sender?: string;
    answer?: WebSpan[];
    status?: string;
    error?: string;
    costUsd?: number;
    durationMs?: number;
  }[];
}

export function sharedView(conversation: Conversation, markdown: (text: string) => RichText): SharedView {
  return {
    ...conversation,
    turns: conversation.turns.map(({ steps, answer, ...turn }) => ({
      ...turn,
      steps: steps.map((step) =>
        step.kind === 'text' ? { kind: 'text' as const, spans: spansOf(markdown(step.text)), ...(step.nested ? { nested: true as const } : {}) } : step,
      ),
      ...(answer ? { answer: spansOf(markdown(answer)) } : {}),
    })),
  };
}
