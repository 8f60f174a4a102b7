import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent, sharedRepo } from '../support/agent-user.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { auditEntries, cannotWall, fetchesIn } from './walls-support.ts';

// A chat in `ask` whose sandboxed agent reaches for a host nobody allowed: the chat is asked,
// through the real bridge and the fake Bot API, while the connection waits.
let world: TelegramWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await world?.stop();
  await server?.close();
  await project?.remove();
  world = project = server = undefined;
});

const CHAT = -4300;
const BOB = 222; // in the group, not allowed to use the bridge
const { say, waitText: answer } = ownerIn(() => world!, CHAT, 30_000);
const cannot = cannotSwitchUser() ?? cannotWall();

type Shown = { messageId: number; text?: string; buttons: readonly unknown[] };
/** Every question about a host the chat was asked, open or answered. */
const hostQuestions = () => world!.telegram.botMessages(CHAT).filter((m) => /^🌐 claude asks to reach/.test(m.text ?? ''));
const openQuestion = (n: number) =>
  world!.telegram.waitFor(() => {
    const asked = hostQuestions();
    return asked.length >= n && asked[n - 1]!.buttons.length ? asked[n - 1] : undefined;
  }, 30_000);
const buttons = (message: Shown) => (message.buttons as { text: string }[]).map((b) => b.text);
const press = (message: Shown, text: string, userId = OWNER) =>
  world!.telegram.pressButton({
    chatId: CHAT,
    messageId: message.messageId,
    data: (message.buttons as { text: string; callback_data: string }[]).find((b) => b.text === text)!.callback_data,
    userId,
  });
const fetchOnce = fetchesIn(() => world!, CHAT, say);
const audit = () => auditEntries(world!.dataDir);

describe.skipIf(cannot)(`a host not on the list, in ask mode (${cannot ?? AGENT_USER})`, () => {
  it('is asked about at its address while the connection waits: Allow once lets it through once, for this session until /new, Deny refuses; all in the audit trail', async () => {
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    server = await listen((_req, res) => res.end('ok'));
    // A name (resolved with no DNS) at an internal address the operator opened: a chat's Allow may reach it.
    const port = new URL(server.origin).port;
    const url = `http://localhost:${port}/`;
    const target = `localhost:${port}`;
    world = await startTelegramWorld({
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      BRIDGE_WORKDIR: project.path,
      BRIDGE_PERMISSION_MODE: 'ask',
      BRIDGE_SANDBOX_INTERNAL: `127.0.0.1:${port}`,
    });
    await giveToAgent(world.cli.dir, ids);

    const first = fetchOnce(url);
    const asked = await openQuestion(1);
    expect(shownText(asked)).toContain(`claude asks to reach ${target} at 127.0.0.1, which is not on this chat's list (/net)`);
    expect(buttons(asked)).toEqual(['✅ Allow once', '✅ Allow for this session', '⛔ Deny']);
    // Someone who may not use the chat answers nothing.
    press(asked, '⛔ Deny', BOB);
    press(asked, '✅ Allow once');
    expect(await first).toBe('fetch: status 200');
    await world.telegram.waitFor(() => (hostQuestions()[0]!.text?.includes('✅ Allowed once by Ada') ? true : undefined));

    // Once is once: the next connection is asked about again, and a Deny refuses it.
    const second = fetchOnce(url);
    press(await openQuestion(2), '⛔ Deny');
    expect(await second).toBe('fetch: refused (status 403)');
    await world.telegram.waitFor(() => (hostQuestions()[1]!.text?.includes('⛔ Denied by Ada') ? true : undefined));

    // For this session: the next turns reach it unasked, until /new.
    const third = fetchOnce(url);
    press(await openQuestion(3), '✅ Allow for this session');
    expect(await third).toBe('fetch: status 200');
    expect(await fetchOnce(url)).toBe('fetch: status 200');
    expect(hostQuestions()).toHaveLength(3);
    say('/new');
    await answer(/^🆕 Fresh claude session/);
    const fourth = fetchOnce(url);
    press(await openQuestion(4), '⛔ Deny');
    expect(await fourth).toBe('fetch: refused (status 403)');
    // Nothing of it was written to the chat's /net list.
    say('/net');
    await answer(/may reach: no host of its own/);

    await expect
      .poll(async () =>
        (await audit()).filter((entry) => ['egress_allowed', 'blocked'].includes(entry.event!)).map((e) => `${e.event} ${e.by ?? ''} ${e.detail}`),
      )
      .toEqual([
        `egress_allowed Ada ${target} at 127.0.0.1 once`,
        'blocked  localhost: denied by Ada, at 127.0.0.1',
        `egress_allowed Ada ${target} at 127.0.0.1 for this session`,
        'blocked  localhost: denied by Ada, at 127.0.0.1',
      ]);
  });

  it('asks nobody about an internal address the operator did not open: no Allow could reach it', async () => {
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    server = await listen((_req, res) => res.end('metrics'));
    const port = new URL(server.origin).port;
    world = await startTelegramWorld({ BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_SANDBOX: 'bwrap', BRIDGE_WORKDIR: project.path, BRIDGE_PERMISSION_MODE: 'ask' });
    await giveToAgent(world.cli.dir, ids);
    expect(await fetchOnce(`http://localhost:${port}/metrics`)).toBe('fetch: refused (status 403)');
    expect(await fetchOnce(`http://127.0.0.1:${port}/metrics`)).toBe('fetch: refused (status 403)');
    expect(hostQuestions()).toEqual([]);
    await expect
      .poll(async () => (await audit()).filter((entry) => entry.event === 'blocked').map((e) => e.detail))
      .toEqual([
        expect.stringMatching(/^localhost: it resolves to an internal address \((127\.0\.0\.1|::1)\), which only the operator opens/),
        expect.stringMatching(/^127\.0\.0\.1: an internal address, which only the operator opens/),
      ]);
  });
});
