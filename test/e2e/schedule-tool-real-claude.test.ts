import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER } from '../support/telegram-world.ts';

// The agent's own follow-ups, with the real claude binary against the mock model: it calls the
// bridge's `schedule` tool, the follow-up is listed in /schedules, and its prompt comes back to
// the same session as a new message when it is due.
let real: RealCliWorld;
const CHAT = -2600;

/** Schedules a follow-up when asked; answers the follow-up when it comes back; otherwise says what the tool said. */
function script(request: ModelRequest): Reply {
  const results = request.toolResults;
  if (results.length) return { text: `tool said: ${results.at(-1)!.content}` };
  if (/remind yourself/.test(request.lastUserText))
    return { toolCalls: [{ name: 'mcp__bridge__schedule', input: { when: 'in 2s', prompt: 'look at CI again' } }] };
  if (/remind too far/.test(request.lastUserText)) return { toolCalls: [{ name: 'mcp__bridge__schedule', input: { when: 'in 40d', prompt: 'much later' } }] };
  if (/look at CI again/.test(request.lastUserText)) return { text: 'CI is green now' };
  return { text: 'nothing to do' };
}

beforeAll(async () => {
  real = await startRealCliWorld('claude', script);
});
afterAll(() => real.stop());

const telegram = () => real.world.telegram;
const say = (text: string) => telegram().sendText({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', text });
const waitMessage = (pattern: RegExp) =>
  telegram().waitFor(
    () =>
      telegram()
        .botMessages(CHAT)
        .find((m) => pattern.test(m.text ?? '')),
    40_000,
  );

describe("the agent's schedule tool, with the real claude", () => {
  it('sets a one-shot follow-up that comes back to the session, and people see it in /schedules', async () => {
    say('remind yourself to check CI');
    await waitMessage(/^tool said: Scheduled #1 “look at CI again”: once, .* · a turn · by the agent\./);
    say('/schedules');
    await waitMessage(/^⏰ 1 schedule/);
    await waitMessage(/^⏰ Schedule #1: look at CI again/);
    await waitMessage(/^CI is green now/);
    // The follow-up went to the same conversation: claude resumed its session.
    const followUp = real.mock.modelRequests.find((r) => /look at CI again/.test(r.lastUserText) && !r.toolResults.length && !/remind/.test(r.lastUserText));
    expect(JSON.stringify(followUp?.rawBody.messages ?? [])).toContain('remind yourself to check CI');
  });

  it('refuses a follow-up more than 30 days ahead', async () => {
    say('remind too far');
    await waitMessage(/^tool said: Not scheduled: at most 30 days ahead\./);
  });
});
