import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import type { ChatAppTwin } from '../support/chat-apps/chat-app.ts';
import { mattermostTwin } from '../support/chat-apps/mattermost.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';
import { actionsOf, FakeMattermost } from '../support/fake-mattermost/index.ts';

// What the contract suite does not show of Mattermost: presses the bridge did not sign are
// refused, the server's 429s and dropped sockets are waited out, and a bridge with Mattermost
// alone (no web server) serves, saying it shows no buttons.

/** The token Mattermost gave the operator's `/bridge` slash command. */
const COMMAND_TOKEN = 'ab12cd34ef56gh78ij90kl12mn';

describe('the Mattermost transport, with its buttons on the web server', () => {
  let mm: FakeMattermost;
  let app: ChatAppTwin;
  let world: ChatAppWorld;

  beforeAll(async () => {
    mm = await FakeMattermost.start();
    app = await mattermostTwin(mm);
    world = await startChatAppWorld([app], { MATTERMOST_COMMAND_TOKEN: COMMAND_TOKEN });
  }, 60_000);
  afterAll(() => world?.stop());

  it('refuses a press whose context it did not sign, or signed for another channel, and takes the real one', async () => {
    const chat = app.group(1);
    await chat.command('permissions', 'ask');
    await chat.waitFor(/Permissions: ask/);
    await chat.say('tools:1 say:signed-ran');
    const question = await chat.waitFor(/Bash/);
    const post = mm.posts.get(question.id)!;
    const allow = actionsOf(post).find((action) => /Allow/.test(action.name))!;
    const context = allow.integration!.context as { d: string; s: string };
    const other = mm.addChannel('elsewhere', []).id;
    const press = (forged: unknown, channel = post.channel_id) =>
      fetch(allow.integration!.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: app.owner.slice('mattermost:'.length), channel_id: channel, post_id: post.id, context: forged }),
      }).then((response) => response.status);
    expect(await press(undefined)).toBe(401);
    expect(await press({ ...context, s: '0'.repeat(64) })).toBe(401);
    expect(await press({ ...context, d: 'deny' })).toBe(401);
    expect(await press(context, other)).toBe(401);
    expect(world.bridge.log()).toMatch(/a press without the bridge’s signature was refused/);
    await chat.press(question, /^✅ Allow$/);
    await chat.waitFor(/^signed-ran/);
  });

  it('writes its commands in help as Mattermost people do, @bridgebot status, never a bare /status', async () => {
    const chat = app.direct();
    await chat.command('help');
    const help = (await chat.waitFor(/Commands/)).text;
    expect(help).toMatch(/^@bridgebot status/m);
    expect(help).toContain('@bridgebot spawn --label Docs');
    expect(help).not.toMatch(/(^|\s)\/(status|spawn|help)\b/m);
    await chat.command('help', 'nosuch');
    await chat.waitFor(/^There is no @bridgebot nosuch: @bridgebot help lists the commands\.$/);
  });

  it('takes its registered slash command with the command’s token, and refuses it without', async () => {
    const chat = app.direct();
    const url = `http://${world.env.BRIDGE_WEB_ADDR}/mattermost/command`;
    const user = app.owner.slice('mattermost:'.length);
    expect(await mm.slashCommand({ url, token: 'x'.repeat(26), user, channel: chat.id, text: 'status' })).toBe(401);
    expect(await mm.slashCommand({ url, token: COMMAND_TOKEN, user, channel: chat.id, text: 'status' })).toBe(200);
    await chat.waitFor(/CLI/);
    await mm.slashCommand({ url, token: COMMAND_TOKEN, user, channel: chat.id, text: 'fly away' });
    await chat.waitFor(/^fly is no command of the bridge: \/bridge help lists them/);
  });

  it('waits out the server’s 429s, and answers', async () => {
    const chat = app.group(2);
    mm.limit.refuseNext(2);
    await chat.say('say:after-429');
    await chat.waitFor(/^after-429/);
    expect(mm.calls.filter((call) => call.status === 429).length).toBe(2);
  });

  it('comes back after its socket is dropped, catching up on what was posted meanwhile', async () => {
    const chat = app.group(3);
    await chat.say('say:before-drop');
    await chat.waitFor(/^before-drop/);
    const before = mm.socket.authentications;
    mm.socket.drop();
    await chat.say('say:while-down');
    await chat.waitFor(/^while-down/);
    expect(mm.socket.authentications).toBeGreaterThan(before);
    await chat.say('say:after-drop');
    await chat.waitFor(/^after-drop/);
    expect(mm.socket.authenticated).toBe(1);
  });
});

describe('a bridge with Mattermost alone', () => {
  it('serves without the web server, saying its posts carry no buttons', async () => {
    const mm = await FakeMattermost.start();
    const app = await mattermostTwin(mm);
    const world = await startChatAppWorld([app], { BRIDGE_WEB_ADDR: '' });
    try {
      expect(world.bridge.log()).toMatch(/serving mattermost$/m);
      expect(world.bridge.log()).toMatch(/no buttons .* without the web server: set BRIDGE_WEB_ADDR/);
      const chat = app.direct();
      await chat.say('say:alone');
      expect((await chat.waitFor(/^alone/)).buttons).toEqual([]);
    } finally {
      await world.stop();
    }
  });

  it('stops the start in one line when the server refuses its token', async () => {
    const mm = await FakeMattermost.start();
    const data = await tempDir('bridge-data-');
    try {
      const bridge = startBridgeProcess({
        MATTERMOST_URL: mm.url,
        MATTERMOST_TOKEN: 'a'.repeat(26),
        BRIDGE_DATA_DIR: data.path,
        BRIDGE_ALLOWED_USERS: 'mattermost:x',
      });
      expect((await bridge.exited).code).toBe(78);
      expect(bridge.logEntries().filter((entry) => entry.level === 'fatal')[0]?.msg).toMatch(/Mattermost refused MATTERMOST_TOKEN \(401 Unauthorized\)/);
    } finally {
      await Promise.all([mm.close(), data.remove()]);
    }
  });
});
