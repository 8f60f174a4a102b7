import { describe, expect, it } from 'vitest';
import { checkoutBusy } from '../../src/chat/turns/checkout-work.ts';
import type { ChatSession } from '../../src/chat/session/chat-session.ts';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';

const chat = (workdir: string, busy: boolean) => ({ busy, record: { workdir } }) as unknown as ChatSession;
const run = (cwd: string, status: SubagentRunRecord['status'], worktree = false) =>
  ({ cwd, status, ...(worktree ? { worktree: { path: '/elsewhere' } } : {}) }) as unknown as SubagentRunRecord;

describe('checkoutBusy', () => {
  it("names a busy chat's turn or a running run working in the checkout or below it", () => {
    const runs = (list: SubagentRunRecord[]) => ({ all: () => list });
    expect(checkoutBusy('/repo', { active: () => [chat('/repo/sub', true)] }, runs([]))).toBe("an agent's turn is working in /repo");
    expect(checkoutBusy('/repo', { active: () => [] }, runs([run('/repo', 'running')]))).toBe('a subagent run is working in /repo');
  });

  it('lets an idle chat, a chat elsewhere, a run in its own worktree and an ended run be', () => {
    const chats = { active: () => [chat('/repo', false), chat('/repo-other', true)] };
    const runs = { all: () => [run('/repo', 'running', true), run('/repo', 'completed')] };
    expect(checkoutBusy('/repo', chats, runs)).toBeUndefined();
  });
});
