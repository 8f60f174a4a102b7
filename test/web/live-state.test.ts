import { describe, expect, it } from 'vitest';
import { followLive, type Live } from '../../web/src/live.ts';
import type { Question, RunView } from '../../web/src/types.ts';

// The dashboard's live state: a refresh's fetches and the stream's events race, and what is
// shown must end as the newest of each, whichever answered last.
function world() {
  const answers = new Map<string, (value: unknown) => void>();
  let emit: (event: string, data: unknown) => void = () => {};
  let live: Live = { runs: [], orchestrations: [], approvals: [], chat: [], connected: false };
  followLive(
    {
      get: <T>(path: string) => new Promise<T>((resolve) => answers.set(path, resolve as (value: unknown) => void)),
      follow: async (_path, on) => {
        emit = on;
      },
    },
    (change) => (live = change(live)),
    new AbortController().signal,
  );
  return {
    emit: (event: string, data: unknown) => emit(event, data),
    answer: async (path: string, value: unknown) => {
      answers.get(path)!(value);
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    live: () => live,
  };
}

const question = { id: 'q1', runId: 'r1', chatKey: 'telegram:1', chatName: 'Ops', title: 'Bash', tool: 'Bash', input: 'ls', askedAt: 1 } as Question;
const run = (status: string) => ({ runId: 'r1', status }) as RunView;

describe("the dashboard's live state", () => {
  it('keeps a question asked while the refresh that opened the stream was still fetching', async () => {
    const page = world();
    page.emit('hello', {});
    page.emit('approvals', [question]);
    for (const path of ['/runs', '/orchestrations', '/chat']) await page.answer(path, []);
    await page.answer('/approvals', []); // fetched before the question was asked
    expect(page.live().approvals).toEqual([question]);
    expect(page.live().connected).toBe(true);
  });

  it("shows a run's newest state when its change came during the refresh", async () => {
    const page = world();
    page.emit('hello', {});
    page.emit('run', run('completed'));
    for (const path of ['/orchestrations', '/approvals', '/chat']) await page.answer(path, []);
    await page.answer('/runs', [run('running')]);
    expect(page.live().runs).toEqual([run('completed')]);
    // After it, events change what they name as before.
    page.emit('approvals', [question]);
    expect(page.live().approvals).toEqual([question]);
  });
});
