import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSavedSessions, sessionsAt, type SavedSessionFormatName } from '../../src/engine/adapters/saved-sessions.ts';
import { readSessionFiles, writeSessionFiles } from '../../src/engine/adapters/session-files.ts';

// Each format of saved sessions is one record (saved-sessions.ts): where the CLI keeps them,
// given its environment and the directory, and how its files read. /resume lists them, a
// session's files move to another machine, and the doctor checks the folder they go in.
const CWD = '/work/app';
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** One saved session of each format, as the real CLIs write them (test/e2e/saved-sessions-real-clis.test.ts reads the real ones). */
const SAVED: Record<SavedSessionFormatName, { id: string; files: Record<string, string> }> = {
  'claude-projects': {
    id: 'c1a2-0001',
    files: {
      'c1a2-0001.jsonl': line({ type: 'user', message: { role: 'user', content: 'fix the bug' }, timestamp: '2026-01-02T03:04:05Z' }),
      'c1a2-0001/subagents/agent-1.jsonl': line({ type: 'user', message: { role: 'user', content: 'look' } }),
    },
  },
  'codex-rollouts': {
    id: 'c0de-0002',
    files: {
      '2026/01/02/rollout-2026-01-02T03-04-05-c0de-0002.jsonl':
        line({ type: 'session_meta', payload: { id: 'c0de-0002', cwd: CWD, timestamp: '2026-01-02T03:04:05Z' } }) +
        line({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>' }] } }) +
        line({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] } }),
    },
  },
};

let space: string;
beforeEach(async () => (space = await mkdtemp(join(tmpdir(), 'saved-sessions-'))));
afterEach(() => rm(space, { recursive: true, force: true }));

async function put(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
}

describe('saved sessions, one record per format', () => {
  it('each CLI keeps them in its own folder in the home, or where its variable says', () => {
    const home = { HOME: '/home/a' };
    expect(sessionsAt('claude-projects', home, CWD)?.folder).toBe('/home/a/.claude/projects/-work-app');
    expect(sessionsAt('claude-projects', home)?.folder).toBe('/home/a/.claude/projects');
    expect(sessionsAt('claude-projects', { ...home, CLAUDE_CONFIG_DIR: '/etc/claude' }, CWD)?.folder).toBe('/etc/claude/projects/-work-app');
    expect(sessionsAt('codex-rollouts', home, CWD)?.folder).toBe('/home/a/.codex/sessions');
    expect(sessionsAt('codex-rollouts', { ...home, CODEX_HOME: '/etc/codex' })?.folder).toBe('/etc/codex/sessions');
    expect(sessionsAt('codex-rollouts', {}, CWD)?.folder).toBeUndefined();
  });

  it.each(Object.keys(SAVED) as SavedSessionFormatName[])('%s: lists a directory’s sessions, and moves one’s files to another home', async (format) => {
    const { id, files } = SAVED[format];
    const from = { HOME: join(space, 'from') };
    await put(sessionsAt(format, from, CWD)!.folder, files);
    const [listed, ...more] = await readSavedSessions(format, CWD, from);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({ id, firstPrompt: 'fix the bug', turns: 1, startedAt: Date.parse('2026-01-02T03:04:05Z') });
    expect(await readSavedSessions(format, '/work/other', from)).toEqual([]);

    const moved = await readSessionFiles(format, CWD, id, from);
    expect(Object.fromEntries(moved.map((file) => [file.path, file.data.toString()]))).toEqual(files);
    const to = { HOME: join(space, 'to') };
    await writeSessionFiles(format, CWD, to, moved);
    expect((await readSavedSessions(format, CWD, to)).map((session) => session.id)).toEqual([id]);
    await expect(writeSessionFiles(format, CWD, to, [{ path: '../../escape.jsonl', data: Buffer.from('') }])).rejects.toThrow(/leaves the CLI's folder/);
  });
});
