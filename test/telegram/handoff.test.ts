import { parse } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_AGENT } from '../support/fake-cli.ts';
import { shownText, startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// A chat's session continued in a terminal: the command that does it, on demand or under every answer.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld()));
afterAll(() => world.stop());

const CHAT = -1700;
const { say, waitText: answer } = ownerIn(() => world, CHAT);

/** What a shell runs of the command: `cd <dir>`, then the CLI resuming the session. */
const commandOf = (text: string) => parse(/\n(cd .*)\n/.exec(text)![1]!);

describe('/handoff', () => {
  it('shows the command that continues the session in a terminal, in /status too, and under every answer when asked', async () => {
    say('/handoff');
    await answer(/^⚠️ This chat has no session yet: send a message first\.\nUsage: \/handoff \[on\|off\]/);
    say('say:working-here');
    await answer(/^working-here/);
    say('/status');
    const status = shownText(await answer(/^Status\n/));
    const sessionId = /\nSession: (\S+)/.exec(status)![1]!;

    say('/handoff');
    const shown = shownText(await answer(/^🖥 Continue this session in a terminal/));
    expect(commandOf(shown)).toEqual(['cd', world.workdir, { op: '&&' }, FAKE_AGENT, '--resume', sessionId]);
    expect(status).toContain(`\nContinue in a terminal: ${/\n(cd .*)\n/.exec(shown)![1]}\n`);
    // The next message continues the same session: the terminal and the chat share it.
    say('say:still-here');
    await answer(/^still-here/);
    expect((await world.cli.invocations()).find((c) => c.prompt === 'say:still-here')!.resume).toBe(sessionId);

    say('/handoff on');
    await answer(/^🖥 Every answer now ends with the command/);
    say('say:with-the-command');
    const withCommand = shownText(await answer(/^with-the-command/));
    expect(withCommand).toMatch(new RegExp(`🖥 cd .* --resume ${sessionId}$`));
    say('/handoff off');
    await answer(/^🖥 Answers no longer show the terminal command\./);
    say('say:without-it');
    expect(shownText(await answer(/^without-it/))).not.toContain('🖥');

    say('/handoff sideways');
    await answer(/^⚠️ "sideways" is neither on nor off\./);
  });
});
