import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditLog, type AuditEntry } from '../../src/kernel/audit/audit-log.ts';
import { ApprovalBroker, MAX_OPEN_QUESTIONS } from '../../src/work/approvals/approval-broker.ts';
import { QUESTION } from '../../src/work/approvals/question.ts';
import { askerId, runAsker, type Asker } from '../../src/work/approvals/asker.ts';
import { buildPolicy, type ToolPolicy } from '../../src/kernel/policy/tool-policy.ts';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { tempDir } from '../support/bridge-process.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat } from '../support/chats.ts';

let dir: { path: string; remove(): Promise<void> };
let out: RecordingOutbound;
let audit: AuditLog;
let holds: number;
let broker: ApprovalBroker;
/** Who the chat's transport says is in chat -9; a look-up waits on `lookup` when set. */
let members: Set<string>;
let lookup: Promise<void> | undefined;

beforeEach(async () => {
  dir = await tempDir('approvals-');
  out = new RecordingOutbound();
  audit = new AuditLog(dir.path);
  holds = 0;
  members = new Set(['telegram:1', 'telegram:2']);
  lookup = undefined;
  broker = new ApprovalBroker({
    out,
    audit,
    timeoutMs: 400,
    ownServerPrefix: 'mcp__bridge__',
    ownTool: 'mcp__bridge__approve_tool',
    mayAnswer: async (_chat, user) => {
      await lookup;
      return members.has(`telegram:${user.id}`);
    },
  });
});
afterEach(() => dir.remove());

const hold = () => {
  holds++;
  return () => holds--;
};
const ASKER = askerId.run('run-1');
const run = (policy = buildPolicy({ ask: true })): Asker => runAsker(record(policy), hold);
const record = (policy: ToolPolicy | undefined): SubagentRunRecord => ({
  runId: 'run-1',
  number: 4,
  chat: chat(-9),
  requesterKey: 'telegram:-9',
  requester: { kind: 'user', userId: '1' },
  cli: 'claude',
  task: 't',
  label: 'Builder',
  cwd: '/',
  depth: 1,
  timeoutSeconds: 60,
  status: 'running',
  createdAt: Date.now(),
  startedAt: Date.now(),
  logFile: '/dev/null',
  delivery: { chat: 'pending', sentParts: 0, attempts: 0 },
  ...(policy ? { policy } : {}),
});

const press = (data: string, userId = '1') => {
  const answer = QUESTION.decode(/^ap:(.*)$/.exec(data)![1]!)!;
  return broker.answer({ address: chat(-9), user: { id: userId, name: 'Ada' }, data, messageId: '1' }, answer);
};
const entries = async (): Promise<AuditEntry[]> =>
  (await audit.flush(), await readFile(join(dir.path, 'audit.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('approvals from the chat', () => {
  it("asks the chat with Allow and Deny, holds the run's timeout, and allows on Allow", async () => {
    const decision = broker.decide(run(), 'Bash', { command: 'touch built.txt' });
    await expect.poll(() => out.sent.length).toBe(1);
    const question = out.sent[0]!;
    expect(question.text).toBe('🔐 #4 Builder asks to use Bash\n{\n  "command": "touch built.txt"\n}\nNo answer within 1 min means deny.');
    expect(question.buttons[0]!.map((b) => b.text)).toEqual(['✅ Allow', '⛔ Deny']);
    expect(holds).toBe(1);
    expect(broker.waitingFor(ASKER)).toBe(1);
    expect(await press(question.buttons[0]![0]!.data)).toEqual({ text: '✅ Allowed' });
    expect(await decision).toEqual({ behavior: 'allow', updatedInput: { command: 'touch built.txt' } });
    expect(holds).toBe(0);
    await expect.poll(() => question.edits.at(-1)).toBe('#4 Builder: Bash\n{\n  "command": "touch built.txt"\n}\n✅ Allowed by Ada');
    expect(await press(question.buttons[0]![1]!.data)).toEqual({ text: 'This request was already answered.' });
    const [entry] = await entries();
    expect(entry).toMatchObject({
      event: 'tool_approved',
      runId: 'run-1',
      chat: 'telegram:-9',
      tool: 'Bash',
      decision: 'allow',
      by: 'Ada',
      inputPreview: '{"command":"touch built.txt"}',
    });
    expect(entry!.inputHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('takes an answer only from someone of the chat, however it comes: the question stays open for them', async () => {
    const decision = broker.decide(run(), 'Bash', { command: 'rm -rf build' });
    await expect.poll(() => out.sent.length).toBe(1);
    const [allow] = out.sent[0]!.buttons[0]!;
    expect(await press(allow!.data, '3')).toEqual({ text: '⛔ Only people of this chat may answer it.', alert: true });
    const id = QUESTION.decode(/^ap:(.*)$/.exec(allow!.data)![1]!)!.id;
    expect(await broker.answerAs(id, 'always', { id: '3', identity: 'telegram:3', name: 'Eve' })).toMatchObject({ alert: true });
    expect(broker.waitingFor(ASKER)).toBe(1);
    expect(await press(allow!.data, '2')).toEqual({ text: '✅ Allowed' });
    expect(await decision).toMatchObject({ behavior: 'allow' });
  });

  it('does not settle a question twice when it was answered while the answerer was looked up', async () => {
    const decision = broker.decide(run(), 'Bash', { command: 'make' });
    await expect.poll(() => out.sent.length).toBe(1);
    const [allow, deny] = out.sent[0]!.buttons[0]!;
    let looked!: () => void;
    lookup = new Promise((resolve) => (looked = resolve));
    const slow = press(allow!.data, '2');
    broker.cancel(ASKER);
    looked();
    expect(await slow).toEqual({ text: 'This request was already answered.' });
    expect(await decision).toEqual({ behavior: 'deny', message: 'The run ended.' });
    expect(await press(deny!.data)).toEqual({ text: 'This request was already answered.' });
  });

  it('denies on Deny, and on silence', async () => {
    const denied = broker.decide(run(), 'Write', { file_path: '/etc/passwd' });
    await expect.poll(() => out.sent.length).toBe(1);
    await press(out.sent[0]!.buttons[0]![1]!.data);
    expect(await denied).toEqual({ behavior: 'deny', message: 'Denied by Ada from the chat.' });
    const silent = await broker.decide(run(), 'Bash', { command: 'make' });
    expect(silent).toEqual({ behavior: 'deny', message: 'No answer within 0 s: denied.' });
    expect((await entries()).map((e) => [e.event, e.by])).toEqual([
      ['tool_denied', 'Ada'],
      ['tool_denied', 'timeout'],
    ]);
  });

  it('a run that ends takes its open questions with it', async () => {
    const decision = broker.decide(run(), 'Bash', { command: 'sleep 100' });
    await expect.poll(() => out.sent.length).toBe(1);
    broker.cancel(ASKER);
    expect(await decision).toEqual({ behavior: 'deny', message: 'The run ended.' });
  });

  it('auto-approves listed tools within bounds, asks about the rest, and stops when revoked', async () => {
    const policy = buildPolicy({ autoApprove: { perMinute: 10 }, allowedTools: ['Read', 'Bash'] })!;
    const r = run(policy);
    expect(await broker.decide(r, 'Read', { file_path: 'a' })).toEqual({ behavior: 'allow', updatedInput: { file_path: 'a' } });
    for (let i = 0; i < 9; i++) await broker.decide(r, 'Bash', { command: `echo ${i}` });
    expect(await broker.decide(r, 'Bash', { command: 'one too many' })).toEqual({
      behavior: 'deny',
      message: 'Auto-approval paused: 10 auto-approved calls a minute is the limit. Slow down or wait.',
    });
    expect(out.sent).toHaveLength(0);
    const asked = broker.decide(r, 'Write', { file_path: 'x' }); // not in the list: asked
    await expect.poll(() => out.sent.length).toBe(1);
    broker.cancel(ASKER);
    await asked;
    const revoked = { ...r, policy: { ...policy, autoApprove: { ...policy.autoApprove!, revoked: { by: 'Ada', at: Date.now() } } } };
    void broker.decide(revoked, 'Read', { file_path: 'b' });
    await expect.poll(() => out.sent.length).toBe(2);
    broker.cancel(ASKER);
    const events = (await entries()).map((e) => e.event);
    expect(events.filter((e) => e === 'tool_auto_approved')).toHaveLength(10);
    expect(events).toContain('tool_denied');
  });

  it('auto-approval ends when its time box does', async () => {
    const policy = buildPolicy({ autoApprove: { maxDurationSeconds: 60 }, allowedTools: ['Read'] })!;
    const old = { ...run(policy), startedAt: Date.now() - 61_000 };
    void broker.decide(old, 'Read', { file_path: 'a' });
    await expect.poll(() => out.sent.length).toBe(1);
    broker.cancel(ASKER);
  });

  it('shows the whole input before it can be allowed: a Write its content, a long input as a file first', async () => {
    const content = 'line\n'.repeat(20);
    void broker.decide(run(), 'Write', { file_path: 'notes.txt', content });
    await expect.poll(() => out.sent.length).toBe(1);
    expect(out.sent[0]!.text).toContain(JSON.stringify(content));
    broker.cancel(ASKER);
    const long = 'x'.repeat(5000);
    void broker.decide(run(), 'Bash', { command: long });
    await expect.poll(() => out.sent.length).toBe(3);
    const [file, question] = out.sent.slice(1);
    expect(file!.document).toMatchObject({ content: JSON.stringify({ command: long }, null, 2) });
    expect(file!.buttons).toEqual([]);
    expect(question!.text).toMatch(/^🔐 #4 Builder asks to use Bash\nIts whole input \(5,\d{3} characters\) is in the file above\./);
    expect(question!.buttons[0]!.map((b) => b.text)).toEqual(['✅ Allow', '⛔ Deny']);
    broker.cancel(ASKER);
  });

  it('never asks about the permission tool itself: the model calling it to pause its own timeout is refused', async () => {
    const decision = await broker.decide(run(), 'mcp__bridge__approve_tool', { tool_name: 'Bash', input: {} });
    expect(decision).toMatchObject({ behavior: 'deny' });
    expect(out.sent).toHaveLength(0);
    expect(holds).toBe(0);
  });

  it('keeps at most a few questions of one run open at once', async () => {
    const open = [1, 2, 3].map((i) => broker.decide(run(), 'Bash', { command: `step ${i}` }));
    await expect.poll(() => out.sent.length).toBe(MAX_OPEN_QUESTIONS);
    expect(await broker.decide(run(), 'Bash', { command: 'step 4' })).toEqual({
      behavior: 'deny',
      message: '3 questions are already waiting for the chat: denied. Wait for their answers.',
    });
    expect(out.sent).toHaveLength(MAX_OPEN_QUESTIONS);
    broker.cancel(ASKER);
    await Promise.all(open);
  });

  it('counts every auto-approval against the per-run cap, however slowly they come', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const policy = buildPolicy({ autoApprove: { perMinute: 10, perRun: 25 }, allowedTools: ['Read'] })!;
      const r = run(policy);
      const decisions = [];
      for (let i = 0; i < 30; i++) {
        vi.setSystemTime(Date.now() + 7000); // about 8 a minute: never the rate limit
        decisions.push((await broker.decide({ ...r, startedAt: Date.now() }, 'Read', { file_path: String(i) })).behavior);
      }
      expect(decisions.filter((d) => d === 'allow')).toHaveLength(25);
      expect(decisions.slice(25)).toEqual(['deny', 'deny', 'deny', 'deny', 'deny']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('auto-approves by Claude Code rules: a command the rule covers, and asks about the rest', async () => {
    const r = run(buildPolicy({ autoApprove: true, allowedTools: ['Bash(echo:*)'] }));
    expect(await broker.decide(r, 'Bash', { command: 'echo hi' })).toEqual({ behavior: 'allow', updatedInput: { command: 'echo hi' } });
    void broker.decide(r, 'Bash', { command: 'rm -rf build' });
    await expect.poll(() => out.sent.length).toBe(1);
    broker.cancel(ASKER);
  });

  it('"Allow <tool> for this session" allows that tool without asking again, and the other open questions for it', async () => {
    const waiting: string[][] = [];
    const main: Asker = {
      id: 'main--9',
      chatKey: 'telegram:-9',
      address: chat(-9),
      title: 'claude',
      lifetime: 'session',
      grantHolder: { person: '1', settings: 'ask in /repo' },
      onWaiting: (tools) => waiting.push(tools),
    };
    const first = broker.decide(main, 'Bash', { command: 'make' });
    const second = broker.decide(main, 'Bash', { command: 'make test' });
    const other = broker.decide(main, 'Write', { file_path: 'x' });
    await expect.poll(() => out.sent.length).toBe(3);
    const question = out.sent[0]!;
    expect(question.text).toMatch(/^🔐 claude asks to use Bash\n/);
    expect(question.buttons[1]!.map((b) => b.text)).toEqual(['✅ Allow Bash for this session']);
    expect(await press(question.buttons[1]![0]!.data)).toEqual({ text: '✅ Bash allowed for this session' });
    expect(await first).toMatchObject({ behavior: 'allow' });
    expect(await second).toMatchObject({ behavior: 'allow' });
    await expect.poll(() => question.edits.at(-1)).toMatch(/✅ Allowed by Ada for this session$/);
    expect(await broker.decide(main, 'Bash', { command: 'make lint' })).toEqual({ behavior: 'allow', updatedInput: { command: 'make lint' } });
    expect(out.sent).toHaveLength(3); // not asked again
    expect(broker.waitingFor('main--9')).toBe(1); // Write is still open
    expect(waiting.at(-1)).toEqual(['Write']);
    broker.forget('main--9');
    expect(await other).toMatchObject({ behavior: 'deny' });
    expect(waiting.at(-1)).toEqual([]);
    void broker.decide(main, 'Bash', { command: 'make again' }); // a new session asks again
    await expect.poll(() => out.sent.length).toBe(4);
    broker.cancel('main--9');
    const audited = await entries();
    expect(audited.every((e) => e.runId === undefined && e.chat === 'telegram:-9')).toBe(true);
    expect(audited.filter((e) => e.event === 'tool_auto_approved')).toEqual([
      expect.objectContaining({ tool: 'Bash', by: 'session', detail: 'allowed for this session (turns typed by 1)' }),
    ]);
  });

  it('a session grant covers only the turns of the person whose turn it was given on, under the settings it was given under', async () => {
    const main = (grantHolder?: Asker['grantHolder']): Asker => ({
      id: 'main--9',
      chatKey: 'telegram:-9',
      address: chat(-9),
      title: 'claude',
      lifetime: 'session',
      ...(grantHolder ? { grantHolder } : {}),
    });
    const ada = main({ person: '1', settings: 'ask' });
    const first = broker.decide(ada, 'Bash', { command: 'make' });
    await expect.poll(() => out.sent.length).toBe(1);
    // Open at the same time: Bob's question, and one of a turn nobody typed; the press answers neither.
    const bobs = broker.decide(main({ person: '2', settings: 'ask' }), 'Bash', { command: 'make' });
    const nobodys = broker.decide(main(), 'Bash', { command: 'make' });
    await expect.poll(() => out.sent.length).toBe(3);
    await press(out.sent[0]!.buttons[1]![0]!.data);
    expect(await first).toMatchObject({ behavior: 'allow' });
    expect(broker.waitingFor('main--9')).toBe(2);
    // A turn nobody typed is offered nothing for the session, in the chat or on the dashboard.
    expect(out.sent[2]!.buttons.map((row) => row.map((b) => b.text))).toEqual([['✅ Allow', '⛔ Deny']]);
    expect(broker.waiting().map((question) => question.grant)).toEqual(['session', undefined]);
    expect(await broker.decide(ada, 'Bash', { command: 'make lint' })).toMatchObject({ behavior: 'allow' });
    expect(out.sent).toHaveLength(3);
    // Ada's next turn under other settings (another mode, directory, model, session) asks again.
    void broker.decide(main({ person: '1', settings: 'ask again' }), 'Bash', { command: 'make' });
    await expect.poll(() => out.sent.length).toBe(4);
    // An "Allow for this session" pressed on a turn nobody typed (a stale button, the dashboard) allows that call only.
    const nobodyId = QUESTION.decode(/^ap:(.*)$/.exec(out.sent[2]!.buttons[0]![0]!.data)![1]!)!.id;
    expect(await press(QUESTION.button('', { id: nobodyId, choice: 'always' }).data)).toEqual({
      text: '✅ Allowed once: a turn no person typed is given nothing for the session',
    });
    expect(await nobodys).toMatchObject({ behavior: 'allow' });
    void broker.decide(main(), 'Bash', { command: 'make' });
    await expect.poll(() => out.sent.length).toBe(5);
    broker.cancel('main--9');
    expect(await bobs).toMatchObject({ behavior: 'deny' });
  });

  it("lets the bridge's own tools through (they keep their own checks), unless a policy disallows them", async () => {
    expect(await broker.decide(run(), 'mcp__bridge__spawn_subagent', { task: 't' })).toMatchObject({ behavior: 'allow' });
    const strict = run(buildPolicy({ ask: true, disallowedTools: ['mcp__bridge__spawn_subagent'] }));
    expect(await broker.decide(strict, 'mcp__bridge__spawn_subagent', { task: 't' })).toMatchObject({ behavior: 'deny' });
    expect(out.sent).toHaveLength(0);
  });
});
