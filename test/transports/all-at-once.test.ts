import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_APP_TWINS } from '../support/chat-apps/index.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';
import { freePort } from '../support/free-port.ts';

// One bridge process serves every chat app at once, and the web chat beside them: each chat's
// turn answered in its own app, by its own session, and a person of any app logs in to the web.
let world: ChatAppWorld;
let web: string;

beforeAll(async () => {
  const apps = await Promise.all(Object.values(CHAT_APP_TWINS).map((make) => make()));
  // A chat app whose service was told where to post (Teams) has chosen the web server's address.
  const address = apps.map((app) => app.postsTo).find(Boolean) ?? `127.0.0.1:${await freePort()}`;
  web = `http://${address}`;
  world = await startChatAppWorld(apps, { BRIDGE_WEB_ADDR: address });
}, 90_000);
afterAll(() => world?.stop());

describe('a bridge serving every chat app at once', () => {
  it('says what it serves, and answers each app in its own chat and session', async () => {
    expect(world.bridge.log()).toMatch(/serving telegram, slack, discord, mattermost, teams, matrix, web/);
    const chats = world.apps.map((app) => ({ app, chat: app.group(1) }));
    await Promise.all(chats.map(({ app, chat }) => chat.say(`say:hello-${app.transport}`)));
    for (const { app, chat } of chats) {
      await chat.waitFor(new RegExp(`^hello-${app.transport}`));
      for (const other of chats.filter((c) => c.app !== app))
        expect((await other.chat.shown()).some((m) => m.text.includes(`hello-${app.transport}`))).toBe(false);
    }
    const runs = (await world.cli.invocations()).filter((c) => c.prompt.startsWith('say:hello-'));
    expect(new Set(runs.map((c) => c.session)).size).toBe(world.apps.length);
  });

  it('logs a person of any chat app in to the web chat, which answers there', async () => {
    const slack = world.apps.find((app) => app.transport === 'slack')!;
    const direct = slack.direct();
    await direct.command('dashboard');
    const reply = await direct.waitFor(/The link works once/);
    const secret = /\/login#(\S+)/.exec(reply.text)![1]!;
    const login = await fetch(`${web}/api/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web },
      body: JSON.stringify({ token: secret }),
    });
    expect(login.status).toBe(200);
    const { bearer } = (await login.json()) as { bearer: string };
    const auth = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
    expect((await fetch(`${web}/api/chat/messages`, { method: 'POST', headers: auth, body: JSON.stringify({ text: 'say:hello-web' }) })).status).toBeLessThan(
      300,
    );
    await expect.poll(async () => JSON.stringify(await (await fetch(`${web}/api/chat`, { headers: auth })).json()), { timeout: 20_000 }).toContain('hello-web');
  });
});
