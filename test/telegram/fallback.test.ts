import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clockTime } from '../../src/engine/fallback/limit-words.ts';
import { FAKE_AGENT } from '../support/fake-cli.ts';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// When claude's quota runs out mid-chat, droid goes on with the turn, briefed from what the
// bridge saw; claude takes the session back once its limit resets. The fake CLI is both (as
// droid, one process a turn), and prints the real claude's and droid's recorded quota errors
// (test/fake-cli/quota.mjs) while a test's quota file says one has run out. The real claude
// and droid do the same in test/e2e/fallback-real-clis.test.ts.
const ADMIN = 222;
const MEMBER = 333;
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld({
    BRIDGE_ALLOWED_USERS: `${OWNER},${MEMBER}`,
    BRIDGE_ADMINS: String(ADMIN),
    BRIDGE_DROID_COMMAND: FAKE_AGENT,
    BRIDGE_FALLBACK: 'claude>droid',
  });
});
afterAll(() => world?.stop());
afterEach(() => quotaBack('claude'));

/** The test runs `cli`'s quota out: the fake prints its recorded `kind` error, resetting at `resetsAt`. */
const quotaOut = (cli: string, kind: 'usage-limit' | 'rate-limit' | 'no-credit', resetsAt?: number) =>
  writeFile(join(world.cli.dir, `quota-${cli}.json`), JSON.stringify({ kind, ...(resetsAt ? { resetsAt } : {}) }));
const quotaBack = (cli: string) => rm(join(world.cli.dir, `quota-${cli}.json`), { force: true });

/** A turn's failure, as its own message (not its progress, `❌ claude · failed · …`). */
const FAILURE = /^❌ (?!\w+ · )/;

function chatAt(chatId: number, userId = OWNER, firstName = 'Ada') {
  const shown = () => world.telegram.botMessages(chatId).map(shownText);
  return {
    say: (text: string, from = userId) => world.telegram.sendText({ chatId, userId: from, text, firstName }),
    shown,
    waitText: (pattern: RegExp) => world.telegram.waitFor(() => shown().find((text) => pattern.test(text))),
  };
}

/** The fake's runs whose prompt holds `text`, in order, as which CLI (the fake as droid says so). */
async function runsOf(text: string) {
  return (await world.cli.invocations()).filter((run) => run.prompt.includes(text)).map((run) => ({ ...run, cli: (run as { as?: string }).as ?? 'claude' }));
}

describe('a chat whose CLI hits its quota', () => {
  it('has its turn answered once, by the next CLI, briefed, with one line saying who took over and why', async () => {
    const chat = chatAt(-5001);
    chat.say('remember the word walnut');
    await chat.waitText(/^echo: remember the word walnut \(turn 1\)/);
    const resetsAt = Date.now() + 2 * 3600_000;
    await quotaOut('claude', 'usage-limit', resetsAt);
    chat.say('fix the flaky test');
    const answer = await chat.waitText(/^droid echo: /);
    expect(chat.shown()).toContain(`↪️ droid took over from claude: claude's usage limit is reached (resets ${clockTime(resetsAt)})`);
    // The brief: the task, the last answer, and the message it answers, from the bridge's own record.
    expect(answer).toContain("you (droid) are taking over a session from claude, because claude's usage limit is reached");
    expect(answer).toContain('The task claude was given:\n  remember the word walnut');
    expect(answer).toContain('Answered:\n    echo: remember the word walnut (turn 1)');
    expect(answer).toMatch(/Now answer this message, which it could not:\]\n\nfix the flaky test \(turn 1\)$/);
    // Answered once: one answer, no failure, claude tried once and droid once.
    expect(chat.shown().filter((text) => /fix the flaky test/.test(text))).toHaveLength(1);
    expect(chat.shown().filter((text) => FAILURE.test(text))).toEqual([]);
    expect((await runsOf('fix the flaky test')).map((run) => run.cli)).toEqual(['claude', 'droid']);

    // While claude is limited, droid goes on in its own session.
    chat.say('and the other one');
    expect(await chat.waitText(/^droid echo: and the other one/)).toBe('droid echo: and the other one (turn 2)');
    expect(chat.shown().filter((text) => text.startsWith('↪️'))).toHaveLength(1);
  });

  it('goes back to the first CLI once its limit resets, briefed on what the other did, saying so', async () => {
    const chat = chatAt(-5002);
    chat.say('start the refactor');
    await chat.waitText(/^echo: start the refactor \(turn 1\)/);
    const claudeSession = (await runsOf('start the refactor'))[0]!.session;
    // A whole second: the CLI says its reset to the second.
    const resetsAt = (Math.floor(Date.now() / 1000) + 2) * 1000;
    await quotaOut('claude', 'usage-limit', resetsAt);
    chat.say('rename the module');
    await chat.waitText(/^droid echo: .*rename the module/s);
    await quotaBack('claude');
    // Its limit resets: the quota is back, and the time it said has come.
    await expect.poll(() => Date.now() > resetsAt, { timeout: 10_000 }).toBe(true);
    chat.say('now run the tests');
    const back = await chat.waitText(/^echo: .*now run the tests/s);
    expect(chat.shown()).toContain("↩️ claude is back (claude's limit has reset) and takes over from droid, told what droid did.");
    expect(back).toContain('you (claude) are back in this session');
    expect(back).toContain('Asked: rename the module');
    // Its own session, resumed: after its first turn and the one its limit stopped, its third.
    expect(back).toMatch(/now run the tests \(turn 3\)$/);
    const [run] = await runsOf('now run the tests');
    expect(run).toMatchObject({ cli: 'claude', session: claudeSession });
  });

  it('without a fallback, is told plainly when it can go on', async () => {
    const chat = chatAt(-5003);
    chat.say('/fallback off');
    await chat.waitText(/^↪️ Fallback: off/);
    const resetsAt = Date.now() + 3600_000;
    await quotaOut('claude', 'usage-limit', resetsAt);
    chat.say('deploy it');
    const told = await chat.waitText(FAILURE);
    expect(told).toBe(
      `❌ claude's usage limit is reached (resets ${clockTime(resetsAt)}). Send your message again after ${clockTime(resetsAt)}, when it resets. /fallback claude>codex lets another CLI take over meanwhile.`,
    );
    expect((await runsOf('deploy it')).map((run) => run.cli)).toEqual(['claude']);
  });

  it('with every CLI of the chain limited, says when each can go on', async () => {
    const chat = chatAt(-5004);
    await quotaOut('claude', 'no-credit');
    await quotaOut('droid', 'rate-limit');
    try {
      chat.say('ship it');
      const told = await chat.waitText(FAILURE);
      expect(chat.shown()).toContain("↪️ droid took over from claude: claude's API key has no credit left");
      expect(told).toBe('❌ droid is rate-limited. It did not say when it resets: try again in 5 minutes. claude is limited too.');
    } finally {
      await quotaBack('droid');
    }
  });
});

describe('a run whose CLI hits its quota', () => {
  it('goes on in the next CLI of its chat, briefed on its task, announced once, and ends with its answer', async () => {
    const chat = chatAt(-5020);
    await quotaOut('claude', 'rate-limit');
    chat.say('/spawn "tidy the imports"');
    const done = await chat.waitText(/^✅ #1/);
    expect(chat.shown().filter((text) => text.startsWith('↪️'))).toEqual(['↪️ droid took over #1 from claude: claude is rate-limited']);
    expect(done).toContain('droid echo: [The bridge: you (droid) are taking over a session from claude, because claude is rate-limited.');
    expect(done).toMatch(/tidy the imports/);
    expect((await runsOf('tidy the imports')).map((run) => run.cli)).toEqual(['claude', 'droid']);
  });
});

describe('/fallback', () => {
  it("shows the chat's chain to anyone, and lets an admin change it, not a member", async () => {
    const chat = chatAt(-5010);
    chat.say('/fallback', MEMBER);
    expect(await chat.waitText(/^↪️ Fallback/)).toMatch(/^↪️ Fallback: claude>droid \(the bridge's default, BRIDGE_FALLBACK\): when a quota/);
    chat.say('/fallback droid>claude', MEMBER);
    expect(await chat.waitText(/^⛔/)).toBe('⛔ /fallback droid>claude needs an admin (BRIDGE_ADMINS) or an owner; you are a member (/whoami says why).');
    chat.say('/fallback claude>cobol', ADMIN);
    expect(await chat.waitText(/cobol/)).toMatch(/Unknown CLI "cobol"; known: claude, codex, copilot, droid, gemini, opencode, qwen\./);
    chat.say('/fallback droid>claude', ADMIN);
    expect(await chat.waitText(/^↪️ Fallback: droid>claude:/)).toMatch(/the first returns once its limit resets\.$/);
    // Its own: another chat keeps the bridge's.
    const other = chatAt(-5011);
    other.say('/fallback');
    expect(await other.waitText(/^↪️ Fallback/)).toMatch(/^↪️ Fallback: claude>droid \(the bridge's default/);
  });
});
