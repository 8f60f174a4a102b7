import type { ServerWritableStream } from '@grpc/grpc-js';
import { delay } from '../../kernel/concurrency/delay.ts';
import type { Orchestrator } from '../../work/orchestration/orchestrator.ts';
import type { SubagentRunRecord } from '../../work/subagents/record.ts';
import { followRun } from '../../work/subagents/follow-run.ts';
import type { Subagents } from '../../work/subagents/subagents.ts';
import { apiEvent, subagentInfo } from './convert.ts';
import type { AgentEvent } from './generated/jsonl_bridge/v1/AgentEvent.ts';
import type { OrchestrationEvent } from './generated/jsonl_bridge/v1/OrchestrationEvent.ts';

/** How often a watch looks for what is new. */
const POLL_MS = 250;

/** A run's events (see `followRun`), then a last message that says how it ended. */
export async function watchRun(
  subagents: Subagents,
  run: SubagentRunRecord,
  fromSequence: number,
  call: ServerWritableStream<unknown, AgentEvent>,
  bareNumbers: string,
): Promise<void> {
  const { write, left } = writer(call);
  for await (const item of followRun(subagents, run, fromSequence, left)) {
    if ('event' in item) {
      const event = apiEvent(item.event, item.sequence);
      if (event) await write(event);
    } else await write({ sequence: item.sequence, timestampMs: Date.now(), parentToolUseId: '', ended: { run: subagentInfo(item.ended, bareNumbers) } });
  }
}

/** An orchestration's steps as they start and end (those already past first), then how it ended. */
export async function watchOrchestration(orchestrator: Orchestrator, id: string, call: ServerWritableStream<unknown, OrchestrationEvent>): Promise<void> {
  const told = new Map<string, string>();
  const { write, left } = writer(call);
  while (!left()) {
    const record = orchestrator.get(id);
    if (!record) return;
    for (const step of record.plan.steps) {
      const state = record.steps[step.id];
      const now = state?.status ?? 'pending';
      if (told.get(step.id) === now || now === 'pending') continue;
      const subagentId = state?.runId ?? '';
      // A step seen only once it had ended still gets its start, so every step reads started → ended.
      if (now === 'running' || (!told.has(step.id) && subagentId)) await write({ orchestrationId: id, stepStarted: { stepId: step.id, subagentId } });
      told.set(step.id, now);
      if (now === 'completed') await write({ orchestrationId: id, stepCompleted: { stepId: step.id, subagentId, result: state?.summary ?? '' } });
      else if (now !== 'running')
        await write({
          orchestrationId: id,
          stepFailed: { stepId: step.id, subagentId, error: state?.error ?? now, skipped: now === 'skipped' },
        });
    }
    if (record.status !== 'running') {
      const steps = record.plan.steps.length;
      const done = record.plan.steps.filter((step) => record.steps[step.id]?.status === 'completed').length;
      const summary = `${done} of ${steps} steps completed`;
      const error = record.status === 'stopped' ? `stopped by ${record.stoppedBy ?? 'someone'}` : summary;
      await write(record.status === 'completed' ? { orchestrationId: id, completed: { summary } } : { orchestrationId: id, failed: { error } });
      return;
    }
    await delay(POLL_MS);
  }
}

/**
 * A stream's writing: `write` writes one message, waiting while the client's buffer is full
 * (or until it goes); `gone` resolves, and `left` is true, once the client has gone (cancelled,
 * or its connection closed).
 */
export function writer<T>(call: ServerWritableStream<unknown, T>) {
  let left = false;
  const gone = new Promise<void>((resolve) => {
    call.once('cancelled', resolve);
    call.once('close', resolve);
  }).then(() => void (left = true));
  const write = async (message: T) => {
    if (!call.write(message)) await Promise.race([new Promise((resolve) => call.once('drain', resolve)), gone]);
  };
  return { write, gone, left: () => left };
}
