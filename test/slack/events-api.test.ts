import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { START_WAIT_MS } from '../support/bridge-process.ts';
import { botMessagesAfter, startSlackWorld, waitForSlackText, type SlackWorld } from '../support/slack-world.ts';

// Slack's Events API instead of Socket Mode: SLACK_SIGNING_SECRET and no app token, Slack
// posting to <BRIDGE_WEB_ADDR>/slack/events, each request signed.
const SECRET = 'fake-signing-secret-0123456789';
let world: SlackWorld;
let eventsUrl: string;
beforeAll(async () => {
  const port = await freePort();
  eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  world = await startSlackWorld({ SLACK_APP_TOKEN: '', SLACK_SIGNING_SECRET: SECRET, BRIDGE_WEB_ADDR: `127.0.0.1:${port}` });
  // Slack is answered once the web server listens, which the bridge says in its own line (after it says it runs).
  await world.bridge.waitForLog(/listening on 127\.0\.0\.1:/, START_WAIT_MS);
  world.slack.deliverEventsTo(eventsUrl, SECRET);
}, 60_000);
afterAll(() => world?.stop());

function signed(body: string, secret = SECRET, timestamp = Math.floor(Date.now() / 1000)): RequestInit {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature },
  };
}

describe('the Events API', () => {
  it("answers Slack's url_verification with its challenge", async () => {
    const response = await fetch(eventsUrl, signed(JSON.stringify({ type: 'url_verification', challenge: 'the-challenge', token: 'x' })));
    expect(await response.json()).toEqual({ challenge: 'the-challenge' });
  });

  it("answers Slack's ssl_check without taking it for a command", async () => {
    const body = new URLSearchParams({ ssl_check: '1', token: 'x' }).toString();
    const request = signed(body);
    const response = await fetch(eventsUrl, {
      ...request,
      headers: { ...(request.headers as Record<string, string>), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    // Answered by the route itself: Bolt never saw it (it would find no event in it, and say so).
    expect(world.bridge.log()).not.toMatch(/Could not determine the type/);
  });

  it('refuses a request with a wrong signature, or an old one replayed', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    expect((await fetch(eventsUrl, signed(body, 'another-secret'))).status).toBe(401);
    expect((await fetch(eventsUrl, signed(body, SECRET, Math.floor(Date.now() / 1000) - 600))).status).toBe(401);
    expect((await fetch(eventsUrl, { method: 'POST', body })).status).toBe(401);
  });

  it('a DM comes as an event and is answered; the request is answered at once', async () => {
    const { channel, message, envelopes } = world.slack.dm({ user: world.ada, text: 'say:over-http' });
    await waitForSlackText(world, channel, /^over-http/, { after: message.ts });
    expect(envelopes[0]!.ackMs).toBeLessThan(3000);
    expect(envelopes[0]!.retries).toBe(0);
  });

  it('/bridge status comes as a form and is answered in the chat', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:ready' });
    await waitForSlackText(world, channel, /^ready/, { after: message.ts });
    const command = world.slack.slashCommand({ channel, user: world.ada, text: 'status' });
    await world.slack.waitFor(() => botMessagesAfter(world, channel, { after: message.ts }).find((m) => /^\*Status\*/.test(m.text)), 20_000);
    expect(command.ackMs).toBeLessThan(3000);
  });
});
