import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamedFile } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A chat's permission mode binds the runs /spawn starts there, with the real claude: in
// `safe` a run that is told to write cannot, even with --auto-approve asked for; in `ask`
// its write is asked in the chat.
let real: RealCliWorld;
const CHAT = OWNER;

beforeAll(async () => {
  real = await startRealCliWorld('claude', createNamedFile);
});
afterAll(() => real.stop());

const telegram = () => real.world.telegram;
const { say, waitText: waitMessage } = ownerIn(() => real.world, CHAT, 40_000);
const created = (file: string) => existsSync(join(real.cliEnv.workdir, file));

describe('/spawn in a chat with a permission mode, with the real claude', () => {
  it('safe: the run cannot write, and --auto-approve cannot lift it', async () => {
    say('/permissions safe');
    await waitMessage(/^🔐 Permissions: safe/);
    say('/spawn --auto-approve --allow Bash "create lifted.txt"');
    await waitMessage(/This chat is in safe mode: its runs only read, and --auto-approve, --allow cannot change that/);
    say('/spawn --label Reader "create spawned-safe.txt"');
    const answer = await waitMessage(/^🚀 #1 started: Reader/);
    expect(answer.text).toContain('🔒 Safe mode: it only reads.');
    const ended = await waitMessage(/^✅ #1 Reader/);
    expect(ended.text).toContain('tool said:');
    expect(created('spawned-safe.txt')).toBe(false);
    expect(created('lifted.txt')).toBe(false);
  });

  it('ask: the run asks the chat before it writes, and writes once allowed', async () => {
    say('/permissions ask');
    await waitMessage(/^🔐 Permissions: ask/);
    say('/spawn --label Writer "create spawned-ask.txt"');
    expect((await waitMessage(/^🚀 #2 started: Writer/)).text).toContain('🙋 Ask mode');
    const question = await waitMessage(/asks to use Bash[^]*spawned-ask\.txt/);
    expect(created('spawned-ask.txt')).toBe(false);
    telegram().pressButton({
      chatId: CHAT,
      messageId: question.messageId,
      data: (question.buttons[0] as { callback_data: string }).callback_data,
      userId: OWNER,
    });
    await waitMessage(/^✅ #2 Writer/);
    expect(created('spawned-ask.txt')).toBe(true);
  });
});
