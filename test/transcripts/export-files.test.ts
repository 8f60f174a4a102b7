import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationTurn } from '../../src/work/transcripts/conversation.ts';
import { exportFiles } from '../../src/work/transcripts/export-files.ts';

// A conversation bigger than the chat app takes a file: the oldest turns go, and both files say
// so; a last turn too big alone loses its oldest steps; what cannot fit at all is refused.
const AT = Date.UTC(2026, 10, 26, 3, 0);

function turn(n: number, steps = 3, outputChars = 200): ConversationTurn {
  return {
    at: AT + n * 60_000,
    prompt: `prompt ${n}`,
    by: 'telegram:111',
    steps: Array.from({ length: steps }, (_, i) => ({
      kind: 'tool' as const,
      id: `t${n}-${i}`,
      name: 'Bash',
      summary: `echo ${n}.${i}`,
      input: JSON.stringify({ command: `echo ${n}.${i}` }, null, 2),
      output: 'x'.repeat(outputChars),
    })),
    answer: `answer ${n}`,
    status: 'completed',
    durationMs: 1000,
  };
}

const conversation = (turns: ConversationTurn[]): Conversation => ({
  kind: 'session',
  title: 'Session with claude',
  chat: 'Team',
  cli: 'claude',
  session: 's1',
  turns,
});
const size = (text: string) => Buffer.byteLength(text);

describe('the export of a conversation', () => {
  it('is whole when it fits', () => {
    const made = exportFiles(conversation([turn(1), turn(2)]), 'session', 1024 * 1024);
    expect(made.ok && made.leftOut).toBe(undefined);
    if (!made.ok) throw new Error(made.error);
    expect(made.files.map((file) => file.filename)).toEqual(['session.md', 'session.json']);
    expect(made.files[0].content).toContain('prompt 1');
  });

  it('leaves out the oldest turns past the limit, each file within it and saying so', () => {
    const turns = Array.from({ length: 40 }, (_, i) => turn(i + 1));
    const whole = exportFiles(conversation(turns), 'session', 10 * 1024 * 1024);
    if (!whole.ok) throw new Error(whole.error);
    const limit = Math.floor(size(whole.files[1].content) / 3);
    const made = exportFiles(conversation(turns), 'session', limit);
    if (!made.ok) throw new Error(made.error);
    const [markdown, json] = made.files;
    for (const file of made.files) expect(size(file.content)).toBeLessThanOrEqual(limit);
    expect(made.leftOut).toMatch(/^The first \d+ of 40 turns are left out: the whole would be over this chat's limit of \d+ KB a file\.$/);
    expect(markdown.content).toContain(`> ${made.leftOut}`);
    expect(markdown.content).toContain('prompt 40');
    expect(markdown.content).not.toContain('> prompt 1\n');
    const data = JSON.parse(json.content) as { leftOut: string; turns: { prompt: string }[] };
    expect(data.leftOut).toBe(made.leftOut);
    expect(data.turns.at(-1)!.prompt).toBe('prompt 40');
    // As many turns as fit: one more would not.
    const dropped = Number(/first (\d+)/.exec(made.leftOut!)![1]);
    expect(data.turns).toHaveLength(40 - dropped);
  });

  it("keeps only the last turn's newest steps when that turn alone is too big", () => {
    const made = exportFiles(conversation([turn(1), turn(2, 200, 2000)]), 'run-1', 60 * 1024);
    if (!made.ok) throw new Error(made.error);
    expect(made.leftOut).toMatch(/^Only the last turn is here, without its first \d+ of 200 steps/);
    for (const file of made.files) expect(size(file.content)).toBeLessThanOrEqual(60 * 1024);
    expect(made.files[0].content).toContain('echo 2.199');
    expect(made.files[0].content).toContain('answer 2');
  });

  it('is refused, with the limit, when not even the last turn fits', () => {
    const made = exportFiles(conversation([{ ...turn(1, 0), answer: 'y'.repeat(5000) }]), 'session', 2000);
    expect(made).toEqual({ ok: false, error: "Even the last turn alone is over this chat's limit of 2 KB a file." });
  });
});
