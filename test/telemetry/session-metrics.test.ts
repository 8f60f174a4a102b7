import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { scrape, total } from '../support/prometheus.ts';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Steering, interrupts and resumes as /metrics counts them, from a real bridge over the fake
// CLI's live session (Claude Code's stream-json input) and a restart.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const say = (chat: number, text: string) => world!.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const answer = (chat: number, pattern: RegExp) =>
  world!.telegram.waitFor(() => world!.telegram.botMessages(chat).find((m) => pattern.test(shownText(m))), 20_000);

describe('steering, interrupts and resumes', () => {
  it('a steered message, a Stop, and a turn resumed after a restart each move their counter', async () => {
    const port = await freePort();
    world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `127.0.0.1:${port}` });
    await world.bridge.waitForLog(/dashboard on /);
    const metrics = async () => (await scrape(`http://127.0.0.1:${port}/metrics`)).body;
    expect(total(await metrics(), 'jsonl_bridge_steers_total', { cli: 'claude' })).toBe(0);

    say(-1, 'tools:10 pace:300 first until-heard');
    await world.telegram.waitFor(() => world!.telegram.botMessages(-1).find((m) => m.history.some((v) => /Bash/.test(v.content.text ?? ''))));
    say(-1, 'also check the tests');
    await answer(-1, /heard: also check the tests/);
    expect(total(await metrics(), 'jsonl_bridge_steers_total', { cli: 'claude' })).toBe(1);

    say(-2, 'hang please');
    await expect.poll(async () => (await world!.cli.invocations()).some((c) => c.prompt === 'hang please')).toBe(true);
    say(-2, '/stop');
    await answer(-2, /Stopped the turn/);
    await expect.poll(async () => total(await metrics(), 'jsonl_bridge_interrupts_total', { cli: 'claude', reason: 'stop' })).toBe(1);
    // The turn ends once its CLI has taken the interrupt, after the Stop is answered.
    await expect.poll(async () => total(await metrics(), 'jsonl_bridge_turns_ended_total', { outcome: 'stopped' })).toBe(1);

    say(-3, 'hang again');
    await expect.poll(async () => (await world!.cli.invocations()).some((c) => c.prompt === 'hang again')).toBe(true);
    await world.restart('SIGTERM');
    await answer(-3, /^↻ Resuming after the restart: “hang again”$/);
    expect(total(await metrics(), 'jsonl_bridge_resumes_total', { cli: 'claude' })).toBe(1);
  });
});
