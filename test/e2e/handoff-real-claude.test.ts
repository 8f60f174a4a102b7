import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn, shownText } from '../support/telegram-world.ts';

// The terminal command that continues a chat's session is offered for a conversation the real
// claude has had, never for one whose every turn failed before its model answered.
let real: RealCliWorld;
beforeAll(async () => {
  real = await startRealCliWorld('claude', (request) =>
    // Claude sends a failed turn's prompt again with the next one (both are the newest user message).
    request.lastUserText.includes('refused') && !request.lastUserText.includes('now answer')
      ? { error: { status: 401, message: 'invalid x-api-key' } }
      : { text: 'answered here' },
  );
});
afterAll(() => real?.stop());

const CHAT = -4900;
const { say, waitText } = ownerIn(() => real.world, CHAT, 60_000);

describe('the session handed to a terminal, with the real claude', () => {
  it('is not offered while no turn of it was answered, and is once one is', { timeout: 240_000 }, async () => {
    say('refused at once');
    await waitText(/❌/);
    say('/status');
    const before = shownText(await waitText(/^Status\n/));
    expect(before).toMatch(/\nSession: \S+/);
    expect(before).not.toContain('Continue in a terminal');
    expect(before).not.toContain('--resume');
    say('/handoff');
    await waitText(/^⚠️ claude has not answered in this chat's session yet, so there is nothing to continue/);

    say('now answer');
    await waitText(/^answered here/);
    say('/status');
    const after = shownText(await waitText(/Continue in a terminal/));
    const sessionId = /\nSession: (\S+)/.exec(after)![1]!;
    expect(after).toMatch(new RegExp(`\\nContinue in a terminal: cd .* --resume ${sessionId}\\n`));
  });
});
