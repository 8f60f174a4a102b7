import type { Bot } from '../bot.ts';
import { chatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import { formatDuration } from '../../work/presentation/progress.ts';
import { displayName, runtimeMs, type SubagentRunRecord } from '../../work/subagents/record.ts';
import { orchestrationAnnouncement } from '../../work/presentation/orchestration.ts';
import { plainText } from '../../kernel/rich/index.ts';
import type { OrchestrationRecord } from '../../work/orchestration/orchestration-record.ts';

/** One piece of finished work reported to the main agent that started it: its chat, and a section of the turn. */
export interface AgentReport {
  address: ChatRef;
  section: string;
}

interface Batch {
  address: ChatRef;
  sections: string[];
  waiters: (() => void)[];
  timer?: NodeJS.Timeout;
}

/**
 * Hands finished work (subagent runs, orchestrations) back to the main agent that started
 * it, as a new turn of its chat's session. Results arriving close together, or while the
 * agent is busy, go in one turn. A delivery resolves once its turn is queued (and so
 * remembered across a crash).
 */
export class AgentInbox {
  private readonly batches = new Map<string, Batch>();
  /** Batches taken out of `batches` whose turn is being queued. */
  private flushing = 0;

  constructor(
    private readonly bot: Bot,
    /** Whether the chat is shown the results too (manifest.json `announceTo: both`). */
    private readonly alsoInChat: boolean,
    private readonly gatherMs = 1000,
  ) {}

  deliver(items: AgentReport[]): Promise<void> {
    return Promise.all(
      items.map(
        ({ address, section }) =>
          new Promise<void>((resolve) => {
            const key = chatKey(address);
            const batch = this.batches.get(key) ?? { address, sections: [], waiters: [] };
            this.batches.set(key, batch);
            batch.sections.push(section);
            batch.waiters.push(resolve);
            clearTimeout(batch.timer);
            batch.timer = setTimeout(() => void this.flush(key), this.gatherMs);
          }),
      ),
    ).then(() => {});
  }

  /** Nothing gathered and nothing on its way to a turn. */
  isIdle(): boolean {
    return this.batches.size === 0 && this.flushing === 0;
  }

  /** Resolves once everything gathered has become a turn (or been dropped by close). */
  async idle(): Promise<void> {
    while (!this.isIdle()) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** Stops handing back: what was gathered stays pending in its records and is handed back after the next start. */
  close(): void {
    for (const batch of this.batches.values()) clearTimeout(batch.timer);
    this.batches.clear();
  }

  private async flush(key: string): Promise<void> {
    const batch = this.batches.get(key);
    if (!batch) return;
    const chat = this.bot.chats.get(batch.address);
    if (chat.busy) {
      // Wait for the agent's current turn; results still arriving join this batch.
      batch.timer = setTimeout(() => void this.flush(key), 250);
      return;
    }
    this.batches.delete(key);
    this.flushing++;
    try {
      await this.bot.turns.start(chat, { text: reportsTurn(batch.sections, this.alsoInChat) });
    } finally {
      this.flushing--;
    }
    for (const done of batch.waiters) done();
  }
}

/** The message the main agent receives: what finished, and with what. */
export function reportsTurn(sections: string[], alsoInChat: boolean): string {
  const head =
    sections.length === 1
      ? '[jsonl-bridge] Work you started in the background has finished:'
      : `[jsonl-bridge] ${sections.length} pieces of work you started in the background have finished:`;
  const close = alsoInChat
    ? 'Act on these results as the conversation needs; the user has also been shown them in the chat.'
    : 'Act on these results as the conversation needs; the user has not seen them, so report what matters.';
  return [head, ...sections, close].join('\n\n');
}

/** A subagent started with spawn_subagent: how it ended, its task and its result. */
export function runReport(run: SubagentRunRecord): AgentReport {
  const how = run.status === 'completed' ? 'completed' : `${run.status.replace('_', ' ')}: ${run.error ?? 'no reason given'}`;
  const title = `## Subagent #${run.number} "${displayName(run)}" (id ${run.runId}, started with spawn_subagent) ${how} after ${formatDuration(runtimeMs(run))}`;
  const result = run.result?.trim() ? run.result.trim() : '(no result text)';
  return { address: run.chat, section: `${title}\n\nTask: ${run.task}\n\nResult:\n${result}` };
}

/** An orchestration started with create_orchestration: every step's outcome and the final result. */
export function orchestrationReport(orchestration: OrchestrationRecord): AgentReport {
  const { header, body } = orchestrationAnnouncement(orchestration);
  return { address: orchestration.chat, section: `## Orchestration (started with create_orchestration)\n\n${plainText(header)}\n\n${body}` };
}
