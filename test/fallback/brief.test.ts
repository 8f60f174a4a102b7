import { describe, expect, it } from 'vitest';
import { briefOf } from '../../src/engine/fallback/brief.ts';
import { freshNotes, noted, TurnWatcher } from '../../src/engine/fallback/work-notes.ts';

describe('the brief a CLI taking over gets', () => {
  it("is written from the bridge's own record: the task, the last answers, the files touched, the call in flight", () => {
    const earlier = new TurnWatcher();
    earlier.observe({ type: 'tool_start', id: 't1', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' } });
    earlier.observe({ type: 'tool_end', id: 't1', isError: false, preview: '' });
    const notes = noted(freshNotes('claude'), 'make the build green', 'Fixed src/a.ts.', earlier.files);

    const stopped = new TurnWatcher();
    stopped.observe({ type: 'text', text: 'Running the tests now.' });
    stopped.observe({ type: 'tool_start', id: 't2', name: 'Bash', input: { command: 'npm test' } });
    // A call inside the CLI's own Task subagent is not the session's.
    stopped.observe({ type: 'tool_start', id: 't3', name: 'Read', input: { file_path: 'inner.ts' }, parentId: 't9' });
    const brief = briefOf({
      from: 'claude',
      to: 'codex',
      reason: "claude's usage limit is reached (resets 14:00 UTC)",
      notes,
      current: { prompt: 'and push it', files: stopped.files, inFlight: stopped.inFlight!, said: stopped.lastText },
    });
    expect(brief).toBe(
      [
        "[The bridge: you (codex) are taking over a session from claude, because claude's usage limit is reached (resets 14:00 UTC). This is what the bridge saw of claude's work; claude's own context is not available to you.",
        '',
        'The task claude was given:',
        '  make the build green',
        '',
        "claude's last answers:",
        '- Asked: make the build green',
        '  Answered:',
        '    Fixed src/a.ts.',
        '',
        "Files claude's tools touched: src/a.ts",
        '',
        'When it stopped, claude was running: Bash npm test (it may not have finished: check before relying on it).',
        '',
        'It had said so far in this turn:',
        '  Running the tests now.',
        '',
        'Now answer this message, which it could not:]',
      ].join('\n'),
    );
  });

  it('keeps the newest few answers and files, each clipped', () => {
    let notes = freshNotes('codex');
    for (let i = 1; i <= 5; i++) notes = noted(notes, `step ${i}`, 'x'.repeat(2000), [`f${i}.ts`]);
    expect(notes.task).toBe('step 1');
    expect(notes.answers.map((answer) => answer.prompt)).toEqual(['step 3', 'step 4', 'step 5']);
    expect(notes.answers[0]!.answer).toHaveLength(1501);
    expect(notes.files).toEqual(['f1.ts', 'f2.ts', 'f3.ts', 'f4.ts', 'f5.ts']);
  });

  it("takes the paths of codex's edits, and a call that ended is in flight no more", () => {
    const watcher = new TurnWatcher();
    watcher.observe({
      type: 'tool_start',
      id: 'e1',
      name: 'edit',
      input: {
        changes: [
          { path: 'src/b.ts', kind: 'update' },
          { path: 'src/c.ts', kind: 'add' },
        ],
      },
    });
    expect(watcher.inFlight).toBe('edit');
    watcher.observe({ type: 'tool_end', id: 'e1', isError: false, preview: '' });
    expect(watcher.files).toEqual(['src/b.ts', 'src/c.ts']);
    expect(watcher.inFlight).toBeUndefined();
  });
});
