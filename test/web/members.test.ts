import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFrom, startWebWorld, type WebWorld } from '../support/web-world.ts';
import { OWNER, shownText, type TelegramWorld } from '../support/telegram-world.ts';

// Who sees what on the dashboard, against the bridge as a real process with the fake Bot API
// (whose getChatMember says who is in which group) and the fake CLI: a person sees the chats
// Telegram would show them, the owner sees everything.
let web: WebWorld;
let world: TelegramWorld;
const BOB = 222;
const SHARED = -4400; // Ada and Bob are in it
const LEFT = -4401; // Bob wrote there once, and has left
const UNREACHABLE = -4402; // Bob is in it, but the Bot API fails when asked

beforeAll(async () => {
  web = await startWebWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${BOB}`, BRIDGE_PERMISSION_MODE: 'ask' });
  ({ world } = web);
}, 60_000);
afterAll(() => web?.stop());

const say = (chatId: number, text: string, userId = OWNER) => world.telegram.sendText({ chatId, userId, text, firstName: userId === OWNER ? 'Ada' : 'Bob' });
const waitText = (chatId: number, pattern: RegExp) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chatId).find((message) => pattern.test(shownText(message))), 30_000);

/** A finished run in the chat, by its label: its id as the owner's dashboard lists it. */
async function runIn(chatId: number, label: string, owner: Page): Promise<string> {
  say(chatId, `/spawn --label ${label} "say:${label}-done"`);
  await waitText(chatId, new RegExp(`^✅ #\\d+ ${label}`));
  const runs = (await apiFrom(owner, '/api/runs')).body as { runId: string; name: string }[];
  return runs.find((run) => run.name === label)!.runId;
}

const labels = async (page: Page) => ((await apiFrom(page, '/api/runs')).body as { name: string }[]).map((run) => run.name);

describe('what a person sees on the dashboard', () => {
  it("shows Bob a group he is in, not Ada's private chat, nor a group he left or one Telegram cannot be asked about; Ada sees all", async () => {
    const ada = await web.loggedIn();
    say(BOB, 'hello', BOB);
    say(SHARED, 'hi', BOB);
    say(LEFT, 'hi', BOB);
    say(UNREACHABLE, 'hi', BOB);
    world.telegram.setStanding(LEFT, BOB, { status: 'left' });
    const mine = await runIn(OWNER, 'AdasOwn', ada);
    await runIn(SHARED, 'Shared', ada);
    await runIn(LEFT, 'AfterBobLeft', ada);
    await runIn(UNREACHABLE, 'Unknowable', ada);
    expect((await labels(ada)).sort()).toEqual(['AdasOwn', 'AfterBobLeft', 'Shared', 'Unknowable']);

    world.telegram.failNext('getChatMember', { code: 502 }, { chatId: UNREACHABLE, times: 3 });
    const bob = await web.loggedIn('phone', { user: BOB });
    expect(await labels(bob)).toEqual(['Shared']);
    await world.bridge.waitForLog(/could not learn whether telegram:222 is in telegram:-4402 .*: not shown to them/);
    const asked = world.telegram.callsTo('getChatMember');
    // A private chat is its own person's: Telegram is not asked about it.
    expect(asked.some((call) => String(call.params.chat_id) === String(OWNER))).toBe(false);

    // One of Ada's private runs is no run at all for Bob: not 403, so its id says nothing.
    for (const path of [`/api/runs/${mine}`, `/api/runs/${mine}/log`, `/api/runs/${mine}/diff`]) expect((await apiFrom(bob, path)).status).toBe(404);
    expect((await apiFrom(ada, `/api/runs/${mine}`)).status).toBe(200);
    const audit = (await apiFrom(bob, '/api/audit')).body as { chat?: string }[];
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((entry) => entry.chat === `telegram:${SHARED}`)).toBe(true);
    await bob.context().close();
    await ada.context().close();
  });

  it("streams Bob the runs of his group as they change, and none of Ada's private chat", async () => {
    const bob = await web.loggedIn('phone', { user: BOB });
    await bob.waitForSelector('[data-run]', { timeout: 20_000 });
    say(OWNER, '/spawn --label Secret "say:secret-done"');
    await waitText(OWNER, /^✅ #\d+ Secret/);
    say(SHARED, '/spawn --label Visible "say:visible-done"');
    await bob.waitForSelector('[data-run]:has-text("Visible")', { timeout: 20_000 });
    expect(await bob.textContent('body')).not.toContain('Secret');
    await bob.context().close();
  });
});

describe("what a chat's admins said of people", () => {
  const CAROL = 333; // in no list: an admin lets her into SHARED alone

  it('shows someone allowed in one group with /allow that group alone, and hides a group from someone denied there', async () => {
    const ada = await web.loggedIn();
    await runIn(SHARED, 'TeamWork', ada);
    world.telegram.sendText({ chatId: SHARED, userId: CAROL, text: 'hi', firstName: 'Carol' });
    await waitText(SHARED, /Your user id is 333/);
    say(SHARED, '/allow Carol');
    await waitText(SHARED, /^✅ Carol \(telegram:333\) may use the bridge in this chat/);

    // Her own chat with the bot is not the group: she is told so. Her login link comes there; her dashboard shows the group, and nothing of Ada's.
    world.telegram.sendText({ chatId: CAROL, userId: CAROL, text: '/start', firstName: 'Carol' });
    await waitText(CAROL, /^⛔ You may use this bot only in the chats whose admins allowed you with \/allow, and this is not one of them\.$/);
    world.telegram.sendText({ chatId: SHARED, userId: CAROL, text: '/dashboard', firstName: 'Carol' });
    const link = await world.telegram.waitFor(() => world.telegram.botMessages(CAROL).find((m) => /The link works once/.test(m.text ?? '')), 20_000);
    const carol = await web.loggedIn('phone', { link: /(http:\/\/\S+\/login#\S+)/.exec(link.text ?? '')![1]! });
    const hers = (await apiFrom(carol, '/api/runs')).body as { name: string; chat: string }[];
    expect(hers.map((run) => run.name)).toContain('TeamWork');
    expect(new Set(hers.map((run) => run.chat))).toEqual(new Set([`telegram:${SHARED}`]));

    // Denied in the group, Bob no longer sees it, nor answers for it; allowed again, he does.
    const bob = await web.loggedIn('phone', { user: BOB });
    expect(await labels(bob)).toContain('TeamWork');
    say(SHARED, '/deny 222');
    await waitText(SHARED, /^⛔ Bob \(telegram:222\) is denied in this chat/);
    expect(await labels(bob)).toEqual([]);
    expect((await apiFrom(bob, '/api/audit')).body).toEqual([]);
    say(SHARED, '/allow 222');
    await waitText(SHARED, /^✅ Bob \(telegram:222\) may use the bridge in this chat: no longer denied\.$/);
    expect(await labels(bob)).toContain('TeamWork');
    // The trail (written in batches) says who let whom in and kept whom out.
    const decisions = async () =>
      ((await apiFrom(ada, '/api/audit')).body as { event: string; by?: string; detail?: string }[])
        .filter((e) => e.event === 'allow' || e.event === 'deny')
        .map((e) => `${e.event} ${e.detail} by ${e.by}`);
    await expect
      .poll(decisions)
      .toEqual(expect.arrayContaining(['allow Carol (telegram:333) by Ada (telegram:111)', 'deny Bob (telegram:222) by Ada (telegram:111)']));
    for (const page of [ada, bob, carol]) await page.context().close();
  });
});

describe('orchestrations', () => {
  it("lists Ada's private orchestration for her alone, and its page and graph are 404 for Bob", async () => {
    say(OWNER, '/orchestrate name: Hidden\nonly: say:hidden-step');
    await waitText(OWNER, /^🧭 #\d+ Hidden/);
    const ada = await web.loggedIn();
    const bob = await web.loggedIn('phone', { user: BOB });
    const named = async (page: Page) =>
      ((await apiFrom(page, '/api/orchestrations')).body as { id: string; name: string }[]).filter((o) => o.name === 'Hidden');
    const [hidden] = await named(ada);
    expect(hidden).toBeDefined();
    expect(await named(bob)).toEqual([]);
    for (const path of [`/api/orchestrations/${hidden!.id}`, `/api/orchestrations/${hidden!.id}/graph.svg`]) {
      expect((await apiFrom(bob, path)).status).toBe(404);
      expect((await apiFrom(ada, path)).status).toBe(200);
    }
    await ada.context().close();
    await bob.context().close();
  });
});

describe('answering questions', () => {
  it("keeps Ada's private question from Bob: not listed, 404 to his answer, refused from a button, and still open for Ada", async () => {
    const ada = await web.loggedIn();
    const bob = await web.loggedIn('phone', { user: BOB });
    say(OWNER, 'tools:1 say:asked-in-private');
    const question = await waitText(OWNER, /asks to use Bash/);
    const waiting = async (page: Page) => (await apiFrom(page, '/api/approvals')).body as { id: string; chatKey: string }[];
    await expect.poll(async () => (await waiting(ada)).length, { timeout: 10_000 }).toBe(1);
    const { id } = (await waiting(ada))[0]!;
    expect(await waiting(bob)).toEqual([]);
    expect((await apiFrom(bob, `/api/approvals/${id}`, { method: 'POST', body: { choice: 'always' } })).status).toBe(404);
    // Telegram would never show Bob Ada's private chat; were a press of his to arrive (forged), the bridge still refuses it.
    const always = question.buttons.find((button) => /for this session/.test(button.text))!;
    world.telegram.forgeButtonPress({ chatId: OWNER, userId: BOB, messageId: question.messageId, data: (always as { callback_data: string }).callback_data });
    await world.telegram.waitFor(() => world.telegram.callbackAnswers.find((answer) => /Only people of this chat/.test(answer.text ?? '')), 10_000);
    expect((await waiting(ada)).map((q) => q.id)).toEqual([id]);
    expect((await apiFrom(ada, `/api/approvals/${id}`, { method: 'POST', body: { choice: 'deny' } })).status).toBe(200);
    await waitText(OWNER, /⛔ Denied by Ada/);
    await ada.context().close();
    await bob.context().close();
  });

  it('lets Bob answer a question of the group he is in', async () => {
    const bob = await web.loggedIn('phone', { user: BOB });
    say(SHARED, 'tools:1 say:bob-allowed-it');
    await waitText(SHARED, /asks to use Bash/);
    let questions: { id: string }[] = [];
    await expect.poll(async () => (questions = (await apiFrom(bob, '/api/approvals')).body as { id: string }[]).length, { timeout: 10_000 }).toBe(1);
    expect((await apiFrom(bob, `/api/approvals/${questions[0]!.id}`, { method: 'POST', body: { choice: 'allow' } })).body).toEqual({ text: '✅ Allowed' });
    await waitText(SHARED, /^bob-allowed-it/);
    await bob.context().close();
  });
});
