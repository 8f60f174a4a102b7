import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSavedSessions } from '../../src/engine/adapters/saved-sessions.ts';
import { AgentSession } from '../../src/engine/session/session.ts';
import { CODEX_MODEL, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { echoScript, startMockModel, type MockModel } from '../support/mock-model/index.ts';
import { realAdapter } from '../support/real-adapters.ts';

// /resume lists what the CLIs themselves saved: read from the files the real binaries write.
let mock: MockModel;
beforeAll(async () => (mock = await startMockModel({ script: echoScript })));
afterAll(() => mock.close());

describe.each(['claude', 'codex'] as const)("%s's own saved sessions", (cli) => {
  let env: CliEnv;
  beforeAll(async () => (env = await prepareCliEnv(cli, mock.url)));
  afterAll(() => env.cleanup());

  it('are found for their directory, with the first prompt and the number of turns', async () => {
    const adapter = await realAdapter(cli);
    const session = new AgentSession({ adapter, cwd: env.workdir, env: env.env, ...(cli === 'codex' ? { options: { model: CODEX_MODEL } } : {}) });
    const first = await session.send('plan the release');
    await session.send('and the changelog');
    const saved = await readSavedSessions(adapter.savedSessions!, env.workdir, env.env);
    expect(saved).toEqual([
      {
        id: first.sessionId,
        firstPrompt: 'plan the release',
        startedAt: expect.any(Number),
        lastAt: expect.any(Number),
        turns: 2,
        file: expect.stringMatching(new RegExp(`${first.sessionId}\\.jsonl$|rollout-.*\\.jsonl$`)),
      },
    ]);
    expect(await readSavedSessions(adapter.savedSessions!, `${env.workdir}/elsewhere`, env.env)).toEqual([]);
  });
});
