import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// The bridge's agents in the real claude binary's own Task tool: offered to the model, and a
// delegation to one runs with that agent's prompt and tools.
let real: RealCliWorld;
const CHAT = OWNER; // a private chat: no group pacing of the progress edits

const AGENT_PROMPT = 'You are the strict reviewer REVIEWER-PROMPT-7.';
const notified = (request: ModelRequest) => JSON.stringify(request.messages).includes('<task-notification>');

/** The progress message named the agent the step was handed to. */
const progressNamesAgent = () =>
  real.world.telegram.callsTo('editMessageText').some((call) => /Agent <code>reviewer: Review the change<\/code>/.test(String(call.params.text)));

/** The main agent delegates to "reviewer"; the reviewer answers; the main agent reports what it heard. */
async function script(request: ModelRequest): Promise<Reply> {
  if (request.system.includes('REVIEWER-PROMPT-7')) return { text: 'reviewed: looks fine' };
  if (notified(request)) return { text: 'The reviewer finished.' };
  // Held until the progress shows the delegation, which a quick turn's answer would replace.
  if (request.toolResults.length) {
    await real.world.telegram.waitFor(() => progressNamesAgent() || undefined, 30_000);
    return { text: 'The reviewer is on it.' };
  }
  const task = request.toolNames.find((name) => name === 'Agent' || name === 'Task');
  return task
    ? { toolCalls: [{ name: task, input: { description: 'Review the change', prompt: 'Review it', subagent_type: 'reviewer' } }] }
    : { text: 'no Task tool' };
}

beforeAll(async () => {
  real = await startRealCliWorld('claude', script);
  const agents = join(real.cliEnv.workdir, '.claude', 'agents');
  await mkdir(agents, { recursive: true });
  await writeFile(join(agents, 'reviewer.md'), `---\ndescription: Reviews changes REVIEW-DESC-3\ntools: Read\nicon: 🔍\n---\n${AGENT_PROMPT}\n`);
  await writeFile(join(agents, 'sleeper.md'), '---\ndescription: Never offered SLEEPER-DESC\nenabled: false\n---\nZzz.\n');
  // The repository's own agents count only once the owner trusts it.
  const owner = ownerIn(() => real.world, CHAT);
  owner.say('/trust on');
  await owner.waitText(/^🛡 Trusted/);
});
afterAll(() => real.stop());

describe("claude's Task tool and the bridge's agents", () => {
  it('offers the enabled agents to the model, and a Task call to one runs with its prompt and tools', async () => {
    void real.world.telegram.sendText({ chatId: CHAT, userId: OWNER, text: 'please get this reviewed' });
    await expect.poll(() => real.mock.modelRequests.some(notified), { timeout: 60_000 }).toBe(true);

    const main = real.mock.modelRequests[0]!;
    const offered = JSON.stringify(main.messages);
    expect(offered).toContain('- reviewer: Reviews changes REVIEW-DESC-3 (Tools: Read)');
    expect(offered).not.toContain('SLEEPER-DESC'); // disabled: never reaches the CLI

    const delegated = real.mock.modelRequests.find((request) => request.system.includes(AGENT_PROMPT));
    expect(delegated).toBeDefined();
    expect(delegated!.toolNames).toEqual(['Read']);

    expect(progressNamesAgent()).toBe(true);
  });
});
