import { jsonOf } from '../../kernel/protocols/decoder.ts';
import type { Conversation, TurnStep } from './conversation.ts';

/**
 * A conversation as JSON a program reads: the same turns as the Markdown, times as ISO
 * strings, each tool call structured (its input parsed back where it was kept whole).
 */
export function conversationJson(conversation: Conversation, exportedAt: Date, leftOut?: string): string {
  const { turns, ...about } = conversation;
  return `${JSON.stringify(
    {
      // The format's name and version say what reads it.
      format: 'jsonl-bridge.conversation',
      version: 1,
      exportedAt: exportedAt.toISOString(),
      ...about,
      ...(leftOut ? { leftOut } : {}),
      turns: turns.map(({ at, steps, ...turn }) => ({ at: new Date(at).toISOString(), ...turn, steps: steps.map(stepJson) })),
    },
    null,
    2,
  )}\n`;
}

function stepJson(step: TurnStep): unknown {
  if (step.kind !== 'tool') return step;
  return { ...step, input: parsed(step.input) };
}

/** The input as JSON where it was kept whole; a cut one stays the text it is. */
function parsed(input: string): unknown {
  const json = jsonOf(input);
  return json === undefined ? input : json;
}
