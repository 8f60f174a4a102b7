import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockModel, ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { shownText, OWNER, type TelegramWorld } from '../support/telegram-world.ts';

// The main agent delegates through the bridge's MCP tool: the real CLI calls
// mcp__bridge__spawn_subagent, the run is announced in the chat, and its result comes back
// to the main session as a new turn, as the next request to the model shows.
const SUBAGENT_ANSWER = 'subagent result: 42 files';

function script(request: ModelRequest): Reply {
  const raw = JSON.stringify(request.rawBody);
  if (raw.includes('You are a subagent')) return { text: SUBAGENT_ANSWER };
  if (request.lastUserText.includes('[jsonl-bridge]')) return { text: 'The main agent read the result.' };
  if (request.toolResults.length) return { text: 'Delegated to a subagent; its result will follow.' };
  if (request.lastUserText.includes('please delegate')) {
    return { toolCalls: [{ name: 'mcp__bridge__spawn_subagent', input: { task: 'count the files', label: 'Counter' } }] };
  }
  return { text: 'ok' };
}

// Three real CLI sessions in a row (the main agent's, the run's, the main one's again): minutes on a loaded machine.
const WAIT_MS = 90_000;

describe.each(['claude', 'codex'] as const)('spawn_subagent through the real %s', { timeout: 4 * WAIT_MS }, (cli) => {
  let real: RealCliWorld;
  let mock: MockModel;
  let world: TelegramWorld;
  const CHAT = -800;

  beforeAll(async () => {
    real = await startRealCliWorld(cli, script);
    ({ mock, world } = real);
  });
  afterAll(() => real.stop());

  it('starts the run, announces it in the chat, and hands its result back to the main session', async () => {
    const texts = () => world.telegram.botMessages(CHAT).map(shownText);
    world.telegram.sendText({ chatId: CHAT, userId: OWNER, text: 'please delegate the counting', chatType: 'group', firstName: 'Ada' });
    await world.telegram.waitFor(() => texts().some((t) => t.startsWith('Delegated to a subagent')), WAIT_MS);
    // The start is said beside the agent's answer, not before it: either may reach the chat first.
    await world.telegram.waitFor(() => texts().some((t) => /^🚀 #1 started by the agent: Counter · \w+ · id/.test(t)), WAIT_MS);
    const announcement = await world.telegram.waitFor(() => texts().find((t) => t.startsWith('✅ #1 Counter')), WAIT_MS);
    expect(announcement).toContain(SUBAGENT_ANSWER);
    await world.telegram.waitFor(() => texts().some((t) => t === 'The main agent read the result.'), WAIT_MS);
    const handBack = mock.modelRequests.find((r) => r.lastUserText.includes('[jsonl-bridge]'))!;
    expect(handBack.lastUserText).toContain('Subagent #1 "Counter"');
    expect(handBack.lastUserText).toContain(SUBAGENT_ANSWER);
    // ...and it went to the main session: the request carries the earlier conversation.
    expect(JSON.stringify(handBack.messages)).toContain('please delegate the counting');
    if (cli === 'claude') {
      const first = mock.modelRequests.find((r) => r.lastUserText.includes('please delegate'))!;
      expect(first.toolNames).toContain('mcp__bridge__spawn_subagent');
      expect(first.system).toContain('spawn_subagent tool');
    }
    // The subagent was told what it is and got no spawn tool.
    const subRequest = mock.modelRequests.find((r) => JSON.stringify(r.rawBody).includes('You are a subagent'))!;
    expect(subRequest.toolNames.some((name) => name.includes('spawn_subagent'))).toBe(false);
  }, 120_000);
});
