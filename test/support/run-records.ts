import { join } from 'node:path';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { chat } from './chats.ts';

/** A run of chat -1 that completed a second ago, its log in `dir`: what tests of ended runs start from. */
export function endedRun(dir: string, overrides: Partial<SubagentRunRecord> = {}): SubagentRunRecord {
  const runId = overrides.runId ?? `run${Math.random().toString(36).slice(2, 8)}`;
  return {
    runId,
    number: 1,
    chat: chat(-1),
    requesterKey: 'telegram:-1',
    requester: { kind: 'user', userId: '1' },
    cli: 'fake',
    task: 'task',
    cwd: dir,
    depth: 1,
    timeoutSeconds: 60,
    status: 'completed',
    createdAt: Date.now() - 5000,
    startedAt: Date.now() - 4000,
    endedAt: Date.now() - 1000,
    result: 'done',
    logFile: join(dir, `${runId}.jsonl`),
    delivery: { chat: 'pending', sentParts: 0, attempts: 0 },
    ...overrides,
  };
}
