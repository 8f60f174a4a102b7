import { afterAll, beforeAll, expect, it } from 'vitest';
import { slackTwin } from '../support/chat-apps/slack.ts';
import { telegramTwin } from '../support/chat-apps/telegram.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';

// One bridge process serving Slack and Telegram at once, each chat answered through its own app.
let world: ChatAppWorld;
beforeAll(async () => (world = await startChatAppWorld([await telegramTwin(), await slackTwin()])), 60_000);
afterAll(() => world?.stop());

it('answers on Slack and on Telegram from one process, each in its own chat and session', async () => {
  const [telegram, slack] = world.apps;
  const onTelegram = telegram!.direct();
  const onSlack = slack!.group(1);
  await onTelegram.say('tools:2 pace:200 say:from-telegram');
  await onSlack.say('tools:2 pace:200 say:from-slack');
  await onTelegram.waitFor(/^from-telegram/);
  await onSlack.waitFor(/^from-slack/);
  expect((await onSlack.shown()).some((m) => /from-telegram/.test(m.text))).toBe(false);
  expect((await onTelegram.shown()).some((m) => /from-slack/.test(m.text))).toBe(false);
  expect(world.bridge.log()).toMatch(/serving telegram, slack/);
  const runs = (await world.cli.invocations()).filter((c) => /from-(telegram|slack)/.test(c.prompt));
  expect(new Set(runs.map((c) => c.session)).size).toBe(2);
});
