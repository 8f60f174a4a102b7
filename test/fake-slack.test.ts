import { createRequire } from 'node:module';
import { WebClient, ErrorCode, type WebAPIPlatformError, type WebAPIRateLimitedError } from '@slack/web-api';
import type { SocketModeReceiver } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSlack } from './support/fake-slack/index.ts';
import { readableMrkdwn } from './support/chat-apps/slack.ts';

// Bolt's own Socket Mode client, the one the bridge runs.
const { SocketModeClient } = createRequire(import.meta.resolve('@slack/bolt'))('@slack/socket-mode') as {
  SocketModeClient: new (options: { appToken: string; clientOptions: { slackApiUrl: string } }) => SocketModeReceiver['client'];
};

let slack: FakeSlack;
let web: WebClient;
let ada: string;
let general: string;

beforeEach(async () => {
  slack = await FakeSlack.start();
  web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } });
  ada = slack.addUser({ name: 'ada', realName: 'Ada Lovelace' }).id;
  general = slack.addChannel({ name: 'general', members: [ada] }).id;
});

afterEach(async () => {
  await slack.close();
});

function platformError(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no error',
    (error: WebAPIPlatformError) => (error.code === ErrorCode.PlatformError ? error.data.error : String(error)),
  );
}

describe('the fake Slack Web API, through @slack/web-api', () => {
  it('answers auth.test for the bot token, and not_authed / invalid_auth otherwise', async () => {
    const me = await web.auth.test();
    expect(me).toMatchObject({ ok: true, user_id: slack.botUserId, team_id: 'T0FAKE' });
    expect(await platformError(new WebClient('xoxb-wrong', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }).auth.test())).toBe('invalid_auth');
    expect(await platformError(new WebClient(undefined, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }).auth.test())).toBe('not_authed');
    // apps.connections.open takes the app-level token only.
    expect(await platformError(web.apps.connections.open())).toBe('not_allowed_token_type');
  });

  it('posts, updates, deletes and reacts as Slack does, and refuses what Slack refuses', async () => {
    const sent = await web.chat.postMessage({ channel: general, text: 'hello' });
    await web.chat.update({ channel: general, ts: sent.ts!, text: 'hello again' });
    await web.reactions.add({ channel: general, timestamp: sent.ts!, name: 'eyes' });
    expect(slack.botMessages(general)).toMatchObject([{ text: 'hello again', edits: 1, reactions: [{ name: 'eyes' }] }]);
    expect(await platformError(web.chat.postMessage({ channel: general, text: 'x'.repeat(40_001) }))).toBe('msg_too_long');
    expect(await platformError(web.chat.postMessage({ channel: 'C404', text: 'hi' }))).toBe('channel_not_found');
    const elsewhere = slack.addChannel({ name: 'random', members: [ada], botIsMember: false }).id;
    expect(await platformError(web.chat.postMessage({ channel: elsewhere, text: 'hi' }))).toBe('not_in_channel');
    expect(await platformError(web.chat.update({ channel: general, ts: '1.000001', text: 'x' }))).toBe('message_not_found');
    const hers = slack.say({ channel: general, user: ada, text: 'mine' }).message;
    expect(await platformError(web.chat.update({ channel: general, ts: hers.ts, text: 'x' }))).toBe('cant_update_message');
    await web.chat.delete({ channel: general, ts: sent.ts! });
    expect(slack.botMessages(general)).toEqual([]);
  });

  it('refuses invalid blocks: too many, a long section, a long button value, a repeated action_id', async () => {
    const section = (text: string) => ({ type: 'section' as const, text: { type: 'mrkdwn' as const, text } });
    const button = (action_id: string, value: string) => ({ type: 'button' as const, action_id, text: { type: 'plain_text' as const, text: 'ok' }, value });
    const cases = [
      Array.from({ length: 51 }, () => section('a')),
      [section('a'.repeat(3001))],
      [{ type: 'actions' as const, elements: [button('a', 'v'.repeat(2001))] }],
      [{ type: 'actions' as const, elements: [button('a', '1'), button('a', '2')] }],
    ];
    for (const blocks of cases) expect(await platformError(web.chat.postMessage({ channel: general, text: 't', blocks }))).toBe('invalid_blocks');
    await web.chat.postMessage({
      channel: general,
      text: 't',
      blocks: [section('a'.repeat(3000)), { type: 'actions' as const, elements: [button('a', '1'), button('b', '2')] }],
    });
  });

  it('rate limits chat.postMessage per channel with Retry-After, after a short burst', async () => {
    slack.setRateLimits({ postBurst: 2 });
    await web.chat.postMessage({ channel: general, text: '1' });
    await web.chat.postMessage({ channel: general, text: '2' });
    const refused = await web.chat.postMessage({ channel: general, text: '3' }).catch((error: WebAPIRateLimitedError) => error);
    expect(refused).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 1 });
    // Another channel has its own budget.
    const other = slack.addChannel({ name: 'other', members: [ada] }).id;
    await web.chat.postMessage({ channel: other, text: 'fine' });
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([200, 200, 429, 200]);
  });

  it('uploads with files.uploadV2 and serves downloads to the bot token only', async () => {
    const uploaded = await web.filesUploadV2({ channel_id: general, filename: 'notes.txt', file: Buffer.from('the notes'), initial_comment: 'here' });
    const file = (uploaded.files as { files?: { id: string; url_private_download: string }[] }[])[0]!.files![0]!;
    expect(slack.fileContent(file.id)?.toString()).toBe('the notes');
    expect(slack.botMessages(general)).toMatchObject([{ text: 'here', files: [file.id] }]);
    const withToken = await fetch(file.url_private_download, { headers: { authorization: `Bearer ${slack.botToken}` } });
    expect(await withToken.text()).toBe('the notes');
    const without = await fetch(file.url_private_download);
    expect(without.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('lists members, a conversation and a user', async () => {
    expect((await web.conversations.members({ channel: general })).members?.sort()).toEqual([ada, slack.botUserId].sort());
    expect((await web.conversations.info({ channel: general })).channel).toMatchObject({ id: general, is_channel: true, is_member: true });
    expect((await web.users.info({ user: ada })).user).toMatchObject({ real_name: 'Ada Lovelace' });
  });
});

describe('the fake Socket Mode, through @slack/socket-mode', () => {
  it('says hello, delivers envelopes, records acks, retries what is not acked, and reconnects on request', async () => {
    const client = new SocketModeClient({ appToken: slack.appToken, clientOptions: { slackApiUrl: slack.apiUrl } });
    const seen: { type: string; retry?: number; text?: string }[] = [];
    let ackMessages = true;
    client.on('message', async ({ ack, event, retry_num }: { ack: () => Promise<void>; event: { text: string }; retry_num: number }) => {
      seen.push({ type: 'message', retry: retry_num, text: event.text });
      if (ackMessages) await ack();
    });
    client.on('slash_commands', async ({ ack, body }: { ack: (r?: object) => Promise<void>; body: { text: string } }) => {
      seen.push({ type: 'slash', text: body.text });
      await ack({ text: 'on it' });
    });
    await client.start();
    try {
      const { envelopes } = slack.dm({ user: ada, text: 'hi' });
      await slack.waitFor(() => envelopes[0]!.ackedAt);
      expect(envelopes[0]!.ackMs).toBeLessThan(3000);
      const command = slack.slashCommand({ channel: general, user: ada, text: 'status' });
      await slack.waitFor(() => command.ackedAt);
      expect(command.ackPayload).toEqual({ text: 'on it' });

      ackMessages = false;
      const unacked = slack.dm({ user: ada, text: 'again' }).envelopes[0]!;
      // Sent again after 3 s without an ack, as retry_attempt 1.
      await vi.waitFor(() => expect(seen.filter((s) => s.text === 'again').map((s) => s.retry)).toEqual([0, 1]), { timeout: 8000 });
      expect(unacked.ackedAt).toBeUndefined();

      ackMessages = true;
      const before = slack.socket.connections;
      slack.disconnect();
      await slack.waitFor(() => slack.socket.connections > before && slack.socket.openConnections === 1, 10_000);
      const after = slack.dm({ user: ada, text: 'after the reconnect' }).envelopes[0]!;
      await slack.waitFor(() => after.ackedAt, 10_000);
    } finally {
      await client.disconnect();
    }
  }, 30_000);

  it('mentions in a channel come as a message and an app_mention; a button press as block_actions', async () => {
    const client = new SocketModeClient({ appToken: slack.appToken, clientOptions: { slackApiUrl: slack.apiUrl } });
    const types: string[] = [];
    let action: { value?: string } | undefined;
    client.on(
      'slack_event',
      async ({ ack, type, body }: { ack: () => Promise<void>; type: string; body: { event?: { type: string }; actions?: { value: string }[] } }) => {
        types.push(body.event?.type ?? type);
        if (body.actions) action = body.actions[0];
        await ack();
      },
    );
    await client.start();
    try {
      slack.say({ channel: general, user: ada, text: `<@${slack.botUserId}> look` });
      const sent = await web.chat.postMessage({
        channel: general,
        text: 'choose',
        blocks: [
          { type: 'actions', elements: [{ type: 'button', action_id: 'b0', text: { type: 'plain_text', text: 'Yes' }, value: 'approve:1' }] },
        ] as never[],
      });
      slack.pressButton({ channel: general, ts: sent.ts!, user: ada, text: 'Yes' });
      await slack.waitFor(() => slack.envelopes.length === 3 && slack.envelopes.every((e) => e.ackedAt));
      expect(types).toEqual(['message', 'app_mention', 'interactive']);
      expect(action?.value).toBe('approve:1');
    } finally {
      await client.disconnect();
    }
  });
});

describe('mrkdwn as the chat-app twin shows it to a test', () => {
  it('renders styles away in pairs, as Slack reads them, and keeps a lone marker (a link secret ending in _) as text', () => {
    expect(readableMrkdwn('*_both_* and _it_, ~gone~.')).toBe('both and it, gone.');
    expect(readableMrkdwn('*Bold:* text')).toBe('Bold: text');
    expect(readableMrkdwn('http://127.0.0.1:8080/login#a_b-c_')).toBe('http://127.0.0.1:8080/login#a_b-c_');
  });
});
