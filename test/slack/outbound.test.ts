import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plain } from '../../src/kernel/rich/index.ts';
import { slackClient } from '../../src/transports/slack/client.ts';
import { slackChat } from '../../src/transports/slack/id.ts';
import { membersThrough } from '../../src/transports/slack/members.ts';
import { SlackOutbound } from '../../src/transports/slack/outbound.ts';
import { FakeSlack } from '../support/fake-slack/index.ts';

// The outbound and the members against the Slack twin, through the real Web API client.
let slack: FakeSlack;
let out: SlackOutbound;
let ada: string;
let general: string;
beforeAll(async () => {
  slack = await FakeSlack.start();
  out = new SlackOutbound(slackClient(slack.botToken, slack.apiUrl, { retries: 0 }));
  ada = slack.addUser({ name: 'ada' }).id;
  general = slack.addChannel({ name: 'general', members: [ada] }).id;
});
afterAll(() => slack.close());

const png = (n: number) => ({ png: Buffer.from(`png-${n}`), filename: `graph-${n}.png` });

describe('the Slack outbound', () => {
  it('a picture edited twice shows once, the newest: each new one shared, the one it replaces deleted', async () => {
    const chat = slackChat(general, slack.say({ channel: general, user: ada, text: `<@${slack.botUserId}> go` }).message.ts);
    const first = await out.sendPicture(chat, png(1));
    expect(await out.editPicture(first, png(2))).toBe(true);
    expect(await out.editPicture(first, png(3))).toBe(true);
    const pictures = slack.botMessages(general, chat.thread).filter((m) => m.files.length);
    expect(pictures.map((m) => slack.fileContent(m.files[0]!)?.toString())).toEqual(['png-3']);
  });

  it('clears buttons an edit leaves out, and says false for a message someone deleted', async () => {
    const chat = slackChat(general);
    const sent = await out.send(chat, plain('Allow?'), { buttons: [[{ text: 'Yes', data: 'y' }]] });
    expect(slack.buttonsOf(slack.message(general, sent.messageId)!)).toHaveLength(1);
    expect(await out.edit(sent, plain('Allowed'))).toBe(true);
    expect(slack.message(general, sent.messageId)).toMatchObject({ text: 'Allowed' });
    expect(slack.buttonsOf(slack.message(general, sent.messageId)!)).toEqual([]);
    slack.message(general, sent.messageId)!.deleted = true;
    expect(await out.edit(sent, plain('again'))).toBe(false);
  });

  it("reacts with Slack's name for the emoji, and leaves out one Slack has no name for here", async () => {
    const { message } = slack.say({ channel: general, user: ada, text: 'steer' });
    await out.react({ ...slackChat(general), messageId: message.ts }, '👀');
    await out.react({ ...slackChat(general), messageId: message.ts }, '🦜');
    expect(slack.message(general, message.ts)!.reactions.map((r) => r.name)).toEqual(['eyes']);
  });
});

describe('who is in a Slack conversation', () => {
  it('asks conversations.members: a member yes, anyone else or another transport no, a channel the bot cannot see no', async () => {
    const members = membersThrough(slackClient(slack.botToken, slack.apiUrl, { retries: 0 }));
    const bob = slack.addUser({ name: 'bob' }).id;
    const hidden = slack.addChannel({ name: 'hidden', members: [ada], botIsMember: false, isPrivate: true }).id;
    expect(await members.isMember(slackChat(general), `slack:${ada}`)).toBe(true);
    expect(await members.isMember(slackChat(general, '1.000100'), `slack:${ada}`)).toBe(true);
    expect(await members.isMember(slackChat(general), `slack:${bob}`)).toBe(false);
    expect(await members.isMember(slackChat(general), 'telegram:111')).toBe(false);
    expect(await members.isMember(slackChat(hidden), `slack:${ada}`)).toBe(false);
  });
});
