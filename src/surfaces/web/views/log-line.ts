import { truncate } from '../../../work/presentation/format/index.ts';
import type { AgentEvent } from '../../../kernel/protocols/events.ts';
import { toolSummary } from '../../../work/presentation/tool-summary.ts';

const TEXT_CHARS = 2000;

/** A run's log event as one line of its page, in the words its chat's progress uses; none for what a person need not read. */
export function logLine(event: AgentEvent): { kind: string; text: string; nested?: true } | undefined {
  const nested = 'parentId' in event && event.parentId ? { nested: true as const } : {};
  switch (event.type) {
    case 'started':
      return { kind: 'started', text: `Session ${event.sessionId}${event.model ? ` · ${event.model}` : ''}` };
    case 'text':
      return { kind: 'text', text: truncate(event.text, TEXT_CHARS), ...nested };
    case 'tool_start':
      return { kind: 'tool', text: toolSummary(event.name, event.input), ...nested };
    case 'tool_end':
      return event.isError ? { kind: 'tool-error', text: event.preview, ...nested } : undefined;
    case 'result':
      return { kind: event.isError ? 'error' : 'result', text: event.isError ? event.text : 'Finished' };
    case 'error':
      return { kind: 'error', text: event.message };
    default:
      return undefined;
  }
}
