import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog, type AuditEntry } from '../../src/kernel/audit/audit-log.ts';
import { ApprovalBroker } from '../../src/work/approvals/approval-broker.ts';
import { QUESTION } from '../../src/work/approvals/question.ts';
import { mainAsker, type Asker } from '../../src/work/approvals/asker.ts';
import type { ApprovalRule } from '../../src/kernel/policy/approval-rules.ts';
import { buildPolicy } from '../../src/kernel/policy/tool-policy.ts';
import { tempDir } from '../support/bridge-process.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat } from '../support/chats.ts';

// A rule of the tool policy needing two people's Allow, at the approval broker: the count and
// who approved on the question, the starter never the last, nobody twice, a Deny by anyone
// ends it, silence is a denial said so, no grant reaches it, and every press is audited.
const RULES: ApprovalRule[] = [
  { tool: 'Bash(git push*)', approvals: 2 },
  { agent: 'deployer', approvals: 3 },
];
const NAMES: Record<string, string> = { '1': 'Ada', '2': 'Bob', '3': 'Cy' };

let dir: { path: string; remove(): Promise<void> };
let out: RecordingOutbound;
let audit: AuditLog;
let broker: ApprovalBroker;

beforeEach(async () => {
  dir = await tempDir('two-person-');
  out = new RecordingOutbound();
  audit = new AuditLog(dir.path);
  broker = new ApprovalBroker({
    out,
    audit,
    timeoutMs: 400,
    ownServerPrefix: 'mcp__bridge__',
    ownTool: 'mcp__bridge__approve_tool',
    mayAnswer: async (_chat, user) => ['1', '2', '3'].includes(String(user.id)),
    rules: RULES,
  });
});
afterEach(() => dir.remove());

/** Ada's typed turn in chat -9, which she may grant herself tools "for this session". */
const adasTurn = (extra: Partial<Asker> = {}): Asker => ({
  ...mainAsker(chat(-9), 'claude', { grantHolder: { person: '1', settings: 's' }, startedBy: 'telegram:1' }),
  ...extra,
});
const press = (data: string, userId: string) => {
  const answer = QUESTION.decode(/^ap:(.*)$/.exec(data)![1]!)!;
  return broker.answer({ address: chat(-9), user: { id: userId, name: NAMES[userId]! }, data, messageId: '1' }, answer);
};
const allowOf = (n = 0) => out.sent[n]!.buttons[0]![0]!.data;
const denyOf = (n = 0) => out.sent[n]!.buttons[0]![1]!.data;
const lastEdit = () => out.sent[0]!.edits.at(-1) ?? '';
const entries = async (): Promise<AuditEntry[]> =>
  (await audit.flush(), await readFile(join(dir.path, 'audit.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const PUSH = { command: 'git push origin main' };

describe('a call a rule needs two people for', () => {
  it('shows who approved, refuses the starter as the second and anyone twice, and runs on another person’s Allow', async () => {
    const decision = broker.decide(adasTurn(), 'Bash', PUSH, 'bypass');
    await expect.poll(() => out.sent.length).toBe(1);
    const question = out.sent[0]!;
    expect(question.text).toContain("Needs 2 people's Allow (tool policy: Bash(git push*)); whoever started this work cannot be the last of them.");
    // No "for this session": a grant never covers such a call.
    expect(question.buttons.flat().map((b) => b.text)).toEqual(['✅ Allow', '⛔ Deny']);

    expect(await press(allowOf(), '2')).toEqual({ text: '✅ 1 of 2 approved: Bob: another person must approve it too' });
    await expect.poll(lastEdit).toContain('1 of 2 approved: Bob');
    expect(broker.waiting()[0]!.approvals).toEqual({ rule: 'Bash(git push*)', needed: 2, by: ['Bob'] });

    expect(await press(allowOf(), '2')).toEqual({ text: "You approved this already: it needs 1 more person's Allow.", alert: true });
    // Ada typed the turn: her Allow cannot be the second; the question stays.
    const refused = await press(allowOf(), '1');
    expect(refused).toEqual({
      text: '⛔ You started this work, so your Allow cannot be the last of the 2 it needs: another person of this chat must approve it.',
      alert: true,
    });
    expect(broker.waiting()).toHaveLength(1);

    expect(await press(allowOf(), '3')).toEqual({ text: '✅ Allowed: 2 of 2 approved' });
    expect(await decision).toEqual({ behavior: 'allow', updatedInput: PUSH });
    await expect.poll(lastEdit).toContain('✅ Allowed by Bob, Cy (2 of 2, rule Bash(git push*))');
    const lines = (await entries()).map(({ event, decision: d, by }) => ({ event, decision: d, by }));
    expect(lines).toEqual([
      { event: 'tool_approval', decision: 'approved 1 of 2', by: 'Bob' },
      { event: 'tool_approval', decision: 'refused: started the work (1 of 2)', by: 'Ada' },
      { event: 'tool_approval', decision: 'approved 2 of 2', by: 'Cy' },
      { event: 'tool_approved', decision: 'allow', by: 'Bob, Cy' },
    ]);
  });

  it('lets the starter approve first, and counts another person as the second', async () => {
    const decision = broker.decide(adasTurn(), 'Bash', { command: 'cd app && git push' }, 'ask');
    await expect.poll(() => out.sent.length).toBe(1);
    expect(await press(allowOf(), '1')).toEqual({ text: '✅ 1 of 2 approved: Ada: another person must approve it too' });
    expect(await press(allowOf(), '2')).toEqual({ text: '✅ Allowed: 2 of 2 approved' });
    expect((await decision).behavior).toBe('allow');
  });

  it('ends on a Deny by anyone, after an Allow too', async () => {
    const decision = broker.decide(adasTurn(), 'Bash', PUSH, 'bypass');
    await expect.poll(() => out.sent.length).toBe(1);
    await press(allowOf(), '2');
    expect(await press(denyOf(), '1')).toEqual({ text: '⛔ Denied' });
    expect(await decision).toEqual({ behavior: 'deny', message: 'Denied by Ada from the chat.' });
    await expect.poll(lastEdit).toContain('⛔ Denied by Ada (after 1 of 2 approved: Bob)');
    expect((await entries()).map((e) => `${e.event} ${e.decision} ${e.by}`)).toEqual(['tool_approval approved 1 of 2 Bob', 'tool_denied deny Ada']);
  });

  it('is denied when the second Allow does not come in time, saying so', async () => {
    const decision = broker.decide(adasTurn(), 'Bash', PUSH, 'bypass');
    await expect.poll(() => out.sent.length).toBe(1);
    await press(allowOf(), '2');
    expect(await decision).toEqual({ behavior: 'deny', message: 'Not enough approvals within 0 s (1 of 2 approved: Bob): denied.' });
    await expect.poll(lastEdit).toContain('⛔ Denied: not enough approvals within 0 s (1 of 2 approved: Bob)');
  });

  it('is asked even where the tool is granted for the session; a bypassing call no rule covers runs unasked', async () => {
    // Ada allowed Bash for the session on an ordinary call.
    const first = broker.decide(adasTurn(), 'Bash', { command: 'ls' }, 'ask');
    await expect.poll(() => out.sent.length).toBe(1);
    await press(out.sent[0]!.buttons[1]![0]!.data, '1');
    expect((await first).behavior).toBe('allow');
    expect(await broker.decide(adasTurn(), 'Bash', { command: 'git status' }, 'ask')).toEqual({ behavior: 'allow', updatedInput: { command: 'git status' } });
    void broker.decide(adasTurn(), 'Bash', PUSH, 'ask');
    await expect.poll(() => out.sent.length).toBe(2);
    expect(broker.waiting()[0]!.approvals?.needed).toBe(2);
    expect(await broker.decide(adasTurn(), 'Bash', { command: 'make test' }, 'bypass')).toEqual({ behavior: 'allow', updatedInput: { command: 'make test' } });
    expect(out.sent).toHaveLength(2);
  });

  it('is asked of a run whose policy auto-approves the tool', async () => {
    const policy = buildPolicy({ allowedTools: ['Bash'], autoApprove: true })!;
    const run = adasTurn({ id: 'run-x', runId: 'x', lifetime: 'run', policy, startedAt: Date.now() });
    expect((await broker.decide(run, 'Bash', { command: 'ls' })).behavior).toBe('allow');
    void broker.decide(run, 'Bash', PUSH);
    await expect.poll(() => out.sent.length).toBe(1);
    expect(out.sent[0]!.text).toContain("Needs 2 people's Allow");
  });

  it("needs an agent rule's count for every call of that agent's work", async () => {
    const decision = broker.decide(adasTurn({ agent: 'deployer' }), 'Write', { file_path: '/srv/x' }, 'bypass');
    await expect.poll(() => out.sent.length).toBe(1);
    expect(out.sent[0]!.text).toContain("Needs 3 people's Allow (tool policy: agent deployer)");
    await press(allowOf(), '1');
    expect(await press(allowOf(), '2')).toEqual({ text: '✅ 2 of 3 approved: Ada, Bob: another person must approve it too' });
    await press(allowOf(), '3');
    expect((await decision).behavior).toBe('allow');
  });
});
