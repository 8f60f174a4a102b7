import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpWorld, type AcpWorld } from '../support/acp-world.ts';
import { ownerIn } from '../support/telegram-world.ts';

// What an ACP agent shows while it talks, and its own commands: a long answer streamed in
// chunks is progress as it comes (the silence watch, at five seconds here, never stops an agent
// talking for thirteen; five leave a loaded machine time to start the agent), and `/help` lists
// the commands the agent announced, which pass through to it.
let acp: AcpWorld;
beforeAll(async () => {
  acp = await startAcpWorld({ BRIDGE_SILENCE_SECONDS: '5' });
});
afterAll(() => acp?.stop());

describe('an ACP agent', () => {
  it('shows a long answer as it streams, and is never taken for silent while it talks', async () => {
    const chat = -6001;
    const { say, waitText } = ownerIn(() => acp.world, chat, 40_000);
    say('stream:16');
    const answer = await waitText(/Paragraph 16 of 16\./);
    expect(answer.text).toMatch(/^Paragraph 1 of 16\.\n\nParagraph 2 of 16\.[\s\S]*Paragraph 16 of 16\./);
    expect(answer.text).not.toMatch(/silent|timed out/);
  });

  it("lists the agent's own commands in /help, and passes one through as its prompt", async () => {
    const chat = -6002;
    const { say, waitText } = ownerIn(() => acp.world, chat, 20_000);
    say('hello');
    await waitText(/^acp echo: hello/);
    say('/help');
    const help = await waitText(/^fake-acp's own commands/);
    expect(help.text).toContain('/compress [what to keep]');
    expect(help.text).toContain('Show what it remembers');
    say('/memory');
    await waitText(/^ran its own \/memory/);
    const prompts = (await acp.log()).filter((entry) => entry.method === 'session/prompt').map((entry) => entry.text);
    expect(prompts).toContain('/memory');
  });
});
