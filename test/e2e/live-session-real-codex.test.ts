import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellToolCall, type MockModel, type ModelRequest } from '../support/mock-model/index.ts';
import { processesUnder } from '../support/process-tree.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, type TelegramWorld } from '../support/telegram-world.ts';

// A chat's live session with the real codex, over its app server (JSON-RPC on stdio): the
// process stays up between turns, a message sent while it works is steered into the running
// turn, Stop interrupts the turn and keeps the thread, and in `ask` mode its approval
// requests are the chat's Allow / Deny buttons.
let real: RealCliWorld;
let mock: MockModel;
let world: TelegramWorld;
const CHAT = OWNER;

beforeAll(async () => {
  real = await startRealCliWorld('codex');
  ({ mock, world } = real);
});
afterAll(() => real.stop());

const say = (text: string) => world.telegram.sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'private', firstName: 'Ada' });
const waitText = (pattern: RegExp, ms = 40_000) => world.telegram.waitFor(() => world.telegram.botMessages(CHAT).find((m) => pattern.test(m.text ?? '')), ms);
const mentions = (request: ModelRequest | undefined, word: string) => JSON.stringify(request?.messages ?? '').includes(word);
const modelAsked = (count: number) => expect.poll(() => mock.modelRequests.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
const press = (message: { messageId: number; buttons: readonly unknown[] }, label: RegExp) => {
  const button = (message.buttons as { text: string; callback_data: string }[]).find((b) => label.test(b.text));
  if (!button) throw new Error(`no button ${label} among ${JSON.stringify(message.buttons)}`);
  world.telegram.pressButton({ chatId: CHAT, messageId: message.messageId, data: button.callback_data, userId: OWNER });
};
/** The pids of the codex app servers under the bridge (its launcher's, not the native binary's it starts). */
function appServers(): number[] {
  const servers = processesUnder(world.bridge.pid).filter((row) => / app-server\b/.test(row.args));
  return servers.filter((row) => !servers.some((parent) => parent.pid === row.ppid)).map((row) => row.pid);
}

describe('a live session of the real codex', () => {
  it('steers a message sent while it works into the running turn: the model hears it with the tool result', async () => {
    const go = join(real.cliEnv.workdir, 'go-steer');
    mock.reset((request) => {
      if (!request.toolResults.length) return { toolCalls: [shellToolCall('codex', `while [ ! -f ${go} ]; do sleep 0.1; done; echo waited`)] };
      return { text: mentions(request, 'BANANA') ? 'heard: BANANA' : 'heard nothing' };
    });
    say('wait for the go file');
    await modelAsked(1);
    await waitText(/while \[/);
    say('also mention BANANA');
    await waitText(/➕ added: also mention BANANA/);
    await writeFile(go, '');
    await waitText(/^heard: BANANA/);
    // One turn, one answer: the steer went into the turn at work (codex takes it at its next
    // model request), not into a turn of its own after it.
    expect(world.telegram.botMessages(CHAT).filter((m) => /^heard/.test(m.text ?? ''))).toHaveLength(1);
  });

  it('keeps the process between turns: the next message starts no CLI', async () => {
    mock.reset(() => ({ text: 'still here' }));
    const before = appServers();
    expect(before).toHaveLength(1);
    say('are you there?');
    await waitText(/^still here/);
    expect(appServers()).toEqual(before);
  });

  it('Stop interrupts the turn and keeps the thread: the next message carries the stopped turn', async () => {
    mock.reset((request) => {
      if (mentions(request, 'PINEAPPLE')) return { text: mentions(request, 'LONGJOB') ? 'I remember LONGJOB' : 'I forgot' };
      return { toolCalls: [shellToolCall('codex', 'sleep 600')] };
    });
    const before = appServers();
    say('start LONGJOB');
    await waitText(/sleep 600/);
    say('/stop');
    await waitText(/^⏹ Stopped the turn; the session goes on with your next message\./);
    say('what was I doing? PINEAPPLE');
    await waitText(/^I remember LONGJOB/);
    expect(appServers()).toEqual(before);
  });

  it('resumes the thread in a new app server after the bridge restarts', async () => {
    mock.reset((request) => ({ text: !mentions(request, 'KIWI') ? 'noted' : mentions(request, 'MANGO') ? 'I remember MANGO' : 'I forgot MANGO' }));
    say('remember MANGO');
    await waitText(/^noted/);
    const before = appServers();
    await world.restart();
    say('what fruit? KIWI');
    await waitText(/^I remember MANGO/);
    expect(appServers()).toHaveLength(1);
    expect(appServers()).not.toEqual(before);
  });

  it('has no plan mode, and says so', async () => {
    say('/plan');
    await waitText(/codex has no plan mode the bridge can drive\./);
  });

  it('ask: codex asks before it acts, Allow runs the command and Deny keeps it from running', async () => {
    mock.reset((request) => {
      if (request.toolResults.length) return { text: `tool said: ${request.toolResults.at(-1)!.content}` };
      const file = /create (\S+)/.exec(request.lastUserText)?.[1];
      return file ? { toolCalls: [shellToolCall('codex', `touch ${file}`)] } : { text: 'nothing to do' };
    });
    say('/permissions ask');
    const mode = await waitText(/^🔐 Permissions: ask/);
    expect(mode.text).not.toMatch(/runs read-only instead/);
    say('create allowed.txt');
    const allow = await waitText(/^🔐 codex asks to use shell[^]*allowed\.txt/);
    press(allow, /^✅ Allow$/);
    await waitText(/^tool said/);
    expect(existsSync(join(real.cliEnv.workdir, 'allowed.txt'))).toBe(true);

    say('create denied.txt');
    const deny = await waitText(/^🔐 codex asks to use shell[^]*denied\.txt/);
    press(deny, /Deny/);
    await waitText(/^tool said[^]*(declin|reject|denied)/i);
    expect(existsSync(join(real.cliEnv.workdir, 'denied.txt'))).toBe(false);
  });
});
