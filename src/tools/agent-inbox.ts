import type { Bridge } from '../bridge/bridge.ts';
import type { ChatAddress } from '../chat/transport.ts';
import { formatDuration } from '../chat/render/progress.ts';
import { displayName, runAddress, runtimeMs, type SubagentRunRecord } from '../subagents/record.ts';
import { orchestrationAnnouncement } from '../chat/render/orchestration.ts';
import type { OrchestrationRecord } from '../orchestration/orchestration-record.ts';

interface Batch {
  address: ChatAddress;
  runs: SubagentRunRecord[];
  waiters: (() => void)[];
  timer?: NodeJS.Timeout;
}

/**
 * Hands finished runs back to the main agent that spawned them, as a new turn of its chat's
 * session. Results arriving close together, or while the agent is busy, go in one turn.
 * A delivery resolves once its turn is queued (and so remembered across a crash).
 */
export class AgentInbox {
  private readonly batches = new Map<string, Batch>();

  constructor(
    private readonly bridge: Bridge,
    /** Whether the chat is shown the results too (manifest.json `announceTo: both`). */
    private readonly alsoInChat: boolean,
    private readonly gatherMs = 1000,
  ) {}

  deliver(runs: SubagentRunRecord[]): Promise<void> {
    const byChat = new Map<string, SubagentRunRecord[]>();
    for (const run of runs) byChat.set(run.requesterKey, [...(byChat.get(run.requesterKey) ?? []), run]);
    return Promise.all(
      [...byChat.entries()].map(
        ([key, chatRuns]) =>
          new Promise<void>((resolve) => {
            const first = chatRuns[0]!;
            const batch = this.batches.get(key) ?? { address: runAddress(first), runs: [], waiters: [] };
            this.batches.set(key, batch);
            batch.runs.push(...chatRuns);
            batch.waiters.push(resolve);
            clearTimeout(batch.timer);
            batch.timer = setTimeout(() => void this.flush(key), this.gatherMs);
          }),
      ),
    ).then(() => {});
  }

  private async flush(key: string): Promise<void> {
    const batch = this.batches.get(key);
    if (!batch) return;
    const chat = this.bridge.chats.get(batch.address);
    if (chat.busy) {
      // Wait for the agent's current turn; results still arriving join this batch.
      batch.timer = setTimeout(() => void this.flush(key), 250);
      return;
    }
    this.batches.delete(key);
    await this.bridge.startTurn(chat, { text: resultTurn(batch.runs, this.alsoInChat) });
    for (const done of batch.waiters) done();
  }
}

/** The message the main agent receives: which of its subagents finished, and with what. */
export function resultTurn(runs: SubagentRunRecord[], alsoInChat: boolean): string {
  const head = runs.length === 1 ? `[jsonl-bridge] A subagent you started with spawn_subagent has finished:` : `[jsonl-bridge] ${runs.length} subagents you started with spawn_subagent have finished:`;
  const sections = runs.map((run) => {
    const how = run.status === 'completed' ? 'completed' : `${run.status.replace('_', ' ')}: ${run.error ?? 'no reason given'}`;
    const title = `## Subagent #${run.number} "${displayName(run)}" (id ${run.runId}) ${how} after ${formatDuration(runtimeMs(run))}`;
    const result = run.result?.trim() ? run.result.trim() : '(no result text)';
    return `${title}\n\nTask: ${run.task}\n\nResult:\n${result}`;
  });
  const close = alsoInChat ? 'Act on these results as the conversation needs; the user has also been shown them in the chat.' : 'Act on these results as the conversation needs; the user has not seen them, so report what matters.';
  return [head, ...sections, close].join('\n\n');
}

/** The message a main agent receives when an orchestration it started has ended. */
export function orchestrationResultTurn(orchestration: OrchestrationRecord): string {
  const { header, body } = orchestrationAnnouncement(orchestration);
  return `[jsonl-bridge] An orchestration you started with create_orchestration has ended.\n\n${header.plain}\n\n${body}`;
}
