import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionConversation } from '../../src/work/transcripts/conversations.ts';
import type { TranscriptEntry } from '../../src/work/transcripts/transcript-entry.ts';
import { Transcripts } from '../../src/work/transcripts/transcripts.ts';

// The bridge's own record of chats' turns: owner-only, bounded on disk however long a chat
// talks, and read back as the turns of one CLI session, those it resumed from included.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'transcripts-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A whole turn's lines: `from` the session it resumed, ending in `session`. */
function turnLines(turn: string, prompt: string, session: string, from?: string): TranscriptEntry[] {
  const at = Date.now();
  return [
    { turn, at, kind: 'prompt', text: prompt, cli: 'claude', by: 'telegram:111', ...(from ? { from } : {}) },
    { turn, at, kind: 'tool', id: `${turn}-t`, name: 'Bash', summary: 'ls', input: '{"command":"ls"}' },
    { turn, at, kind: 'tool_end', id: `${turn}-t`, isError: false, output: 'a.txt' },
    { turn, at, kind: 'end', status: 'completed', session, answer: `answer to ${prompt}`, durationMs: 10 },
  ];
}

describe('a chat transcript', () => {
  it('keeps lines owner-only, in order, per chat', async () => {
    const transcripts = new Transcripts(dir);
    for (const line of turnLines('a', 'one', 's1')) transcripts.record('telegram:1', line);
    for (const line of turnLines('b', 'other chat', 's9')) transcripts.record('telegram:2', line);
    expect((await transcripts.read('telegram:1')).map((line) => line.kind)).toEqual(['prompt', 'tool', 'tool_end', 'end']);
    expect((await transcripts.read('telegram:2'))[0]).toMatchObject({ text: 'other chat' });
    const folder = join(dir, 'transcripts');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    for (const file of await readdir(folder)) expect((await stat(join(folder, file))).mode & 0o777).toBe(0o600);
    // No chat id becomes a path.
    expect((await readdir(folder)).every((file) => /^[0-9a-f]{32}\.jsonl$/.test(file))).toBe(true);
  });

  it('stays within twice its bound however long the chat talks, and says when earlier turns are gone', async () => {
    const bound = 20_000;
    const transcripts = new Transcripts(dir, bound);
    let from: string | undefined;
    for (let i = 0; i < 200; i++) {
      for (const line of turnLines(`t${i}`, `prompt ${i} ${'x'.repeat(200)}`, 's1', from)) transcripts.record('telegram:1', line);
      from = 's1';
      if (i % 20 === 0) await transcripts.flush();
    }
    await transcripts.flush();
    const folder = join(dir, 'transcripts');
    let total = 0;
    for (const file of await readdir(folder)) total += (await stat(join(folder, file))).size;
    expect(total).toBeLessThanOrEqual(2 * bound);
    const conversation = sessionConversation(await transcripts.read('telegram:1'), 's1', 'Team', 'claude');
    expect(conversation.turns.at(-1)!.prompt).toMatch(/^prompt 199 /);
    expect(conversation.turns.length).toBeLessThan(200);
    expect(conversation.earlierTurnsGone).toBe(true);
  });

  it("gathers a session's turns across the ids its CLI gave it, and no other session's", () => {
    const lines = [
      ...turnLines('a', 'first', 's1'),
      ...turnLines('b', 'elsewhere', 's2'),
      // A CLI that names a resumed session anew: the chain goes on.
      ...turnLines('c', 'second', 's1b', 's1'),
      ...turnLines('d', 'third', 's1b', 's1b'),
    ];
    const conversation = sessionConversation(lines, 's1b', 'Team', 'claude');
    expect(conversation.turns.map((turn) => turn.prompt)).toEqual(['first', 'second', 'third']);
    expect(conversation.earlierTurnsGone).toBeUndefined();
    expect(conversation.turns[0]!.steps).toEqual([{ kind: 'tool', id: 'a-t', name: 'Bash', summary: 'ls', input: '{"command":"ls"}', output: 'a.txt' }]);
    expect(sessionConversation(lines, 's2', 'Team', 'claude').turns.map((turn) => turn.prompt)).toEqual(['elsewhere']);
  });
});
