import { describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';
import { idButton } from '../../src/kernel/ports/buttons.ts';
import { plain } from '../../src/kernel/rich/index.ts';
import { COMMANDS } from '../../src/chat/commands/index.ts';
import type { Command } from '../../src/chat/dispatch/command.ts';
import { chat } from '../support/chats.ts';

let stoppedWith: unknown;
/** A command that never ends by itself. */
const hang: Command = {
  name: 'hang',
  description: 'Hangs',
  usage: '/hang',
  access: 'member',
  run: ({ signal }) =>
    new Promise<void>((_, reject) =>
      signal.addEventListener('abort', () => {
        stoppedWith = signal.reason;
        reject(new Error('the hanging command stopped'));
      }),
    ),
};
/** A command that takes longer than commands may, with its own deadline. */
const slowish: Command = {
  name: 'slowish',
  description: 'Takes 1.5 s',
  usage: '/slowish',
  access: 'member',
  timeoutSeconds: () => 5,
  async run({ reply, signal }) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await reply(plain(signal.aborted ? 'aborted' : 'done'));
  },
};

// A command never holds a chat past its deadline: the transport hands a chat's messages over one
// after another, so a command that never ended would leave the chat answering nothing more.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' }, settings: { commandTimeoutSeconds: 1 }, commands: [...COMMANDS, hang, slowish] });

const say = (text: string) => t.app.bot.handleMessage({ address: chat(-1), user: { id: '1', name: 'Ada' }, text });

describe('command deadlines', () => {
  it('stops a command that hangs at its deadline, tells the chat, and the chat answers again', async () => {
    const started = Date.now();
    await say('/hang');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(10_000);
    expect(t.out.textsTo(-1)).toEqual(['⌛ /hang took longer than 1 s and was stopped. The chat goes on: try again, or ask for something smaller.']);
    expect(stoppedWith).toEqual(new Error('stopped after its 1 s deadline'));
    await say('/status');
    expect(t.out.textsTo(-1)[1]).toMatch(/session/i);
  });

  it('gives a command with its own deadline that long, and a quick command answers as ever', async () => {
    await say('/slowish');
    expect(t.out.textsTo(-1)).toEqual(['done']);
  });

  it('answers a button whose handler hangs at the deadline, and the chat goes on', async () => {
    t.app.bot.button(idButton('hang'), () => new Promise(() => {}));
    const started = Date.now();
    const answer = await t.app.bot.handleButton({ address: chat(-1), user: { id: '1', name: 'Ada' }, data: 'hang:x', messageId: '1' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toEqual({ text: '⌛ That took longer than 1 s and was stopped.', alert: true });
    await say('/status');
    expect(t.out.textsTo(-1)[0]).toMatch(/session/i);
  });
});
