import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpWorld, type AcpWorld } from '../support/acp-world.ts';
import { allowButtonOf, OWNER, shownText } from '../support/telegram-world.ts';

// A chat's live session with an ACP agent (the fake one, on the SDK's agent side, declared in
// clis.json): one process per chat, a `session/prompt` per turn, Stop as `session/cancel`, its
// permission requests the chat's Allow / Deny, and the agent's misbehaviour (a crash, garbage,
// a request the bridge does not know, an `initialize` never answered, a `session/load`
// refused, a permission asked after a cancel) each ending in a sentence, never a hang.
let acp: AcpWorld;
beforeAll(async () => {
  acp = await startAcpWorld(
    { BRIDGE_PERMISSION_MODE: 'ask', BRIDGE_BUSY_MODE: 'steer' },
    {
      mute: { env: { FAKE_ACP_NO_INIT: '1' }, openTimeoutSeconds: 2 },
      slow: { env: { FAKE_ACP_NO_INIT: '1' }, openTimeoutSeconds: 120 },
      forgetful: { env: { FAKE_ACP_REFUSE_LOAD: '1' } },
      eager: { env: { FAKE_ACP_MODE: 'auto' } },
      headstrong: { env: { FAKE_ACP_MODE: 'auto', FAKE_ACP_NO_DEFAULT: '1' } },
      copilotish: { env: { FAKE_ACP_MODE: 'https://agentclientprotocol.com/protocol/session-modes#auto', FAKE_ACP_URL_MODES: '1' } },
      'stdio-only': { env: { FAKE_ACP_NO_HTTP_MCP: '1' } },
    },
    { 'tool-policy.json': JSON.stringify({ rules: [{ tool: 'Bash(git push*)', approvals: 2 }] }) },
  );
});
afterAll(() => acp?.stop());

let nextChat = -5100;
const newChat = () => nextChat--;
const telegram = () => acp.world.telegram;
const say = (chat: number, text: string) => telegram().sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const waitText = (chat: number, pattern: RegExp, ms = 20_000) =>
  telegram().waitFor(
    () =>
      telegram()
        .botMessages(chat)
        .find((m) => pattern.test(shownText(m))),
    ms,
  );
const press = (chat: number, message: { messageId: number; buttons: readonly unknown[] }, label: RegExp) => {
  const button = (message.buttons as { text: string; callback_data: string }[]).find((b) => label.test(b.text));
  if (!button) throw new Error(`no button ${label} among ${JSON.stringify(message.buttons)}`);
  telegram().pressButton({ chatId: chat, messageId: message.messageId, data: button.callback_data, userId: OWNER });
};
const prompts = async (text: string) => (await acp.log()).filter((entry) => entry.method === 'session/prompt' && entry.text === text);
/** The chat's Allow / Deny question about `pattern`, with its buttons. */
const question = (chat: number, pattern: RegExp) =>
  telegram().waitFor(
    () =>
      telegram()
        .botMessages(chat)
        .find((m) => pattern.test(m.text ?? '') && allowButtonOf(m)),
    20_000,
  );

describe('an ACP agent', () => {
  it('answers turns in one process and one session, offered the MCP server and neither fs nor terminal', async () => {
    const chat = newChat();
    say(chat, 'hello');
    await waitText(chat, /^acp echo: hello \(turn 1\)/);
    say(chat, 'again');
    await waitText(chat, /^acp echo: again \(turn 2\)/);
    const [first, second] = [...(await prompts('hello')), ...(await prompts('again'))];
    expect(second!.pid).toBe(first!.pid);
    expect(second!.sessionId).toBe(first!.sessionId);
    const log = await acp.log();
    const init = log.find((entry) => entry.method === 'initialize' && entry.pid === first!.pid)!;
    expect(init.clientCapabilities).toMatchObject({ fs: { readTextFile: false, writeTextFile: false }, terminal: false });
    const opened = log.find((entry) => entry.method === 'session/new' && entry.sessionId === first!.sessionId)!;
    expect(opened.mcpServers?.map((server) => server.type)).toEqual(['http']);
  });

  it('offers an agent without MCP over http the bridge’s tools over stdio, through the bridge’s relay: it lists them and spawns a run', async () => {
    const chat = newChat();
    say(chat, '/cli stdio-only');
    await waitText(chat, /stdio-only/);
    say(chat, 'mcp-spawn:relayed+task');
    const answer = shownText(await waitText(chat, /^mcp over stdio/, 30_000));
    expect(answer).toMatch(/^mcp over stdio: \S*\bspawn_subagent\b\S*; Subagent #1 started/);
    await waitText(chat, /^✅ #1 Relayed/, 30_000);
    const log = await acp.log();
    const prompt = log.find((entry) => entry.method === 'session/prompt' && entry.text === 'mcp-spawn:relayed+task')!;
    const server = log.find((entry) => entry.method === 'session/new' && entry.sessionId === prompt.sessionId)!.mcpServers![0]!;
    expect(server).toMatchObject({
      name: 'bridge',
      args: [expect.stringMatching(/\/dist\/server\/mcp-stdio-relay\.js$/), expect.stringMatching(/^http:\/\/.*\/mcp$/)],
    });
    // The session's secret reaches the relay in its environment, never in its argv, which `ps` shows.
    const secret = server.env!.find((variable) => variable.name === 'JSONL_BRIDGE_MCP_TOKEN')!.value;
    expect(secret.length).toBeGreaterThan(16);
    const ran = log.find((entry) => entry.event === 'mcp-stdio' && entry.pid === prompt.pid)!;
    expect(ran.argv).toEqual([server.command, ...server.args!]);
    expect(ran.argv!.join(' ')).not.toContain(secret);
  });

  it('asks the chat before a tool call, and runs it once allowed', async () => {
    const chat = newChat();
    say(chat, 'bash:echo+hi');
    press(chat, await question(chat, /echo hi/), /Allow$/);
    await waitText(chat, /^ran: echo hi/);
    const answers = (await acp.log()).filter((entry) => entry.event === 'permission');
    expect(answers.at(-1)!.outcome).toEqual({ outcome: 'selected', optionId: 'proceed_once' });
  });

  it('asks about a tool call that comes first in the request (no tool_call before it), and a Deny is a reject', async () => {
    const chat = newChat();
    say(chat, 'bash:rm+-rf+build ask-first');
    press(chat, await question(chat, /rm -rf build/), /Deny$/);
    await waitText(chat, /^denied: rm -rf build/);
    expect((await acp.log()).filter((entry) => entry.event === 'permission').at(-1)!.outcome).toEqual({ outcome: 'selected', optionId: 'cancel' });
  });

  it('Stop is session/cancel: the turn ends, the process and the session stay', async () => {
    const chat = newChat();
    say(chat, 'sleep:600 LONGJOB');
    await expect.poll(async () => (await prompts('sleep:600 LONGJOB')).length, { timeout: 20_000 }).toBe(1);
    say(chat, '/stop');
    await waitText(chat, /^⏹ Stopped the turn; the session goes on with your next message\./);
    say(chat, 'after the stop');
    await waitText(chat, /^acp echo: after the stop \(turn 2\)/);
    const [stopped, next] = [(await prompts('sleep:600 LONGJOB'))[0]!, (await prompts('after the stop'))[0]!];
    expect(next.pid).toBe(stopped.pid);
    expect((await acp.log()).some((entry) => entry.method === 'session/cancel' && entry.sessionId === stopped.sessionId)).toBe(true);
  });

  it('queues a message sent mid-turn on its own side, never a second session/prompt into a running one', async () => {
    const chat = newChat();
    say(chat, 'sleep:2 FIRST');
    await expect.poll(async () => (await prompts('sleep:2 FIRST')).length, { timeout: 20_000 }).toBe(1);
    say(chat, 'SECOND');
    await waitText(chat, /^acp echo: SECOND/, 30_000);
    await waitText(chat, /^acp echo: sleep:2 FIRST/);
    // Said once: ACP names no message back, so none is steered into a running prompt.
    expect(
      telegram()
        .botMessages(chat)
        .filter((m) => /cannot take a message while it works/.test(m.text ?? '')),
    ).toHaveLength(1);
    say(chat, 'prompt-count');
    await waitText(chat, /^prompts at once: 1$/);
  });

  it('withdraws a permission asked after a cancel, without asking the chat', async () => {
    const chat = newChat();
    say(chat, 'ask-after-cancel');
    await expect.poll(async () => (await prompts('ask-after-cancel')).length, { timeout: 20_000 }).toBe(1);
    say(chat, '/stop');
    await waitText(chat, /^⏹ Stopped the turn/);
    await expect
      .poll(async () => (await acp.log()).find((entry) => entry.event === 'late-permission')?.outcome, { timeout: 10_000 })
      .toEqual({ outcome: 'cancelled' });
    expect(
      telegram()
        .botMessages(chat)
        .filter((m) => /rm -rf \//.test(m.text ?? '')),
    ).toEqual([]);
  });

  it('a crash mid-turn fails the turn with its words; the next message loads the session in a new process', async () => {
    const chat = newChat();
    say(chat, 'before');
    await waitText(chat, /^acp echo: before \(turn 1\)/);
    say(chat, 'crash');
    await waitText(chat, /crashed on purpose/);
    say(chat, 'after');
    await waitText(chat, /^acp echo: after \(turn 3\)/);
    const [crashed, after] = [(await prompts('crash'))[0]!, (await prompts('after'))[0]!];
    expect(after.pid).not.toBe(crashed.pid);
    expect((await acp.log()).some((entry) => entry.method === 'session/load' && entry.pid === after.pid)).toBe(true);
  });

  it('keeps garbage on stdout out of the answer', async () => {
    const chat = newChat();
    say(chat, 'garbage here');
    const answer = await waitText(chat, /^acp echo: garbage here/);
    expect(answer.text).not.toContain('not json');
  });

  it('refuses a request it does not know, and the agent goes on', async () => {
    const chat = newChat();
    say(chat, 'unknown-request');
    await waitText(chat, /^unknown request: refused \(-32601\)/);
  });

  it('fails the turn in one sentence when the agent never answers initialize', async () => {
    const chat = newChat();
    say(chat, '/cli mute');
    await waitText(chat, /mute/);
    expect(shownText(await waitText(chat, /mute/))).not.toMatch(/⚠️/);
    say(chat, 'anyone there?');
    await waitText(chat, /did not open its session within 2 s/);
  });

  it('Stop while the agent has not opened its session ends the turn at once', async () => {
    const chat = newChat();
    say(chat, '/cli slow');
    await waitText(chat, /Switched to slow/);
    say(chat, 'hello?');
    await expect.poll(async () => (await acp.log()).filter((entry) => entry.method === 'initialize').length, { timeout: 20_000 }).toBeGreaterThan(0);
    say(chat, '/stop');
    await waitText(chat, /^⏹ Stopped the turn/, 10_000);
  });

  it('starts a new session, briefed from the bridge’s notes and saying so, when the agent refuses session/load', async () => {
    const chat = newChat();
    say(chat, '/cli forgetful');
    await waitText(chat, /forgetful/);
    say(chat, 'remember me');
    await waitText(chat, /^acp echo: remember me \(turn 1\)/);
    say(chat, 'crash');
    await waitText(chat, /crashed on purpose/);
    say(chat, 'still there?');
    await waitText(chat, /^acp echo: \[The bridge: you \(forgetful\) could not load this chat's previous session/);
    await waitText(chat, /no longer knows the previous session \([\w-]+\), so this message started a fresh one, told what the bridge saw of the work so far\./);
    // Briefed from the bridge's own notes: the earlier exchange, then the message.
    const briefed = (await acp.log()).find((entry) => entry.method === 'session/prompt' && entry.text?.startsWith('[The bridge:'))!;
    expect(briefed.text).toContain('remember me');
    expect(briefed.text).toMatch(/still there\?$/);
  });

  it('runs /spawn --cli in an agent process of its own, asking the chat in its mode, announced once', async () => {
    const chat = newChat();
    say(chat, '/spawn --cli fake-acp --label Look "bash:ls"');
    await waitText(chat, /^🚀 #1 started: Look · fake-acp/m);
    press(chat, await question(chat, /#1 Look asks to use Bash/), /Allow$/);
    const done = await waitText(chat, /^✅ #1 Look/, 30_000);
    expect(done.text).toContain('ran: ls');
    await expect.poll(async () => (await prompts('bash:ls')).length).toBe(1);
    expect(
      telegram()
        .botMessages(chat)
        .filter((m) => /^✅ #1/.test(m.text ?? '')),
    ).toHaveLength(1);
  });

  it('in bypass allows at once, but for what a tool-policy rule binds, which is asked', async () => {
    const chat = newChat();
    say(chat, '/permissions bypass');
    await waitText(chat, /bypass/);
    say(chat, 'bash:ls+-la');
    await waitText(chat, /^ran: ls -la/);
    expect(
      telegram()
        .botMessages(chat)
        .filter((m) => allowButtonOf(m) && /ls -la/.test(m.text ?? '')),
    ).toEqual([]);
    say(chat, 'bash:git+push+origin+main');
    const asked = await question(chat, /git push origin main/);
    expect(shownText(asked)).toContain("Needs 2 people's Allow (tool policy: Bash(git push*))");
    press(chat, asked, /Deny$/);
    await waitText(chat, /^denied: git push origin main/);
  });

  it('in safe refuses what is not reading, unasked, and puts the agent in its own read-only mode', async () => {
    const chat = newChat();
    say(chat, '/permissions safe');
    await waitText(chat, /safe/);
    say(chat, 'bash:touch+y');
    await waitText(chat, /^denied: touch y/);
    expect(
      telegram()
        .botMessages(chat)
        .filter((m) => allowButtonOf(m) && /touch y/.test(m.text ?? '')),
    ).toEqual([]);
    // Its session went to `plan` before its first prompt.
    const log = await acp.log();
    const [prompt] = log.filter((entry) => entry.method === 'session/prompt' && entry.text === 'bash:touch+y');
    const modes = log.filter((entry) => entry.method === 'session/set_mode' && entry.sessionId === prompt!.sessionId);
    expect(modes).toEqual([expect.objectContaining({ modeId: 'plan' })]);
    expect(log.indexOf(modes[0]!)).toBeLessThan(log.indexOf(prompt!));
  });

  it('puts an agent that opens in a mode allowing things unasked in `default`, where the chat decides', async () => {
    const chat = newChat();
    say(chat, '/cli eager');
    await waitText(chat, /eager/);
    say(chat, 'bash:touch+z');
    const asked = await question(chat, /touch z/);
    press(chat, asked, /Deny$/);
    await waitText(chat, /^denied: touch z/);
    const log = await acp.log();
    const [prompt] = log.filter((entry) => entry.method === 'session/prompt' && entry.text === 'bash:touch+z');
    const modes = log.filter((entry) => entry.method === 'session/set_mode' && entry.sessionId === prompt!.sessionId);
    expect(modes).toEqual([expect.objectContaining({ modeId: 'default' })]);
    // An agent that opens in `default` is left in it.
    expect(log.filter((entry) => entry.method === 'session/set_mode' && entry.modeId === 'default')).toEqual(modes);
  });

  it('reads modes named by URL as Copilot names them: `…#agent` is the one that asks', async () => {
    const chat = newChat();
    say(chat, '/cli copilotish');
    await waitText(chat, /copilotish/);
    say(chat, 'bash:touch+u');
    press(chat, await question(chat, /touch u/), /Deny$/);
    await waitText(chat, /^denied: touch u/);
    const [prompt] = (await acp.log()).filter((entry) => entry.method === 'session/prompt' && entry.text === 'bash:touch+u');
    const modes = (await acp.log()).filter((entry) => entry.method === 'session/set_mode' && entry.sessionId === prompt!.sessionId);
    expect(modes).toEqual([expect.objectContaining({ modeId: 'https://agentclientprotocol.com/protocol/session-modes#agent' })]);
  });

  it("says in the bridge's log when an agent offers no mode in which it asks, and leaves it in its own", async () => {
    const chat = newChat();
    say(chat, '/cli headstrong');
    await waitText(chat, /headstrong/);
    say(chat, 'hello there');
    await waitText(chat, /^acp echo: hello there/);
    await acp.world.bridge.waitForLog(/headstrong: the agent offers no mode in which it asks before it acts \(its modes: plan, auto\): it stays in "auto"/);
    const [prompt] = (await acp.log()).filter((entry) => entry.method === 'session/prompt' && entry.text === 'hello there');
    expect((await acp.log()).filter((entry) => entry.method === 'session/set_mode' && entry.sessionId === prompt!.sessionId)).toEqual([]);
  });
});
