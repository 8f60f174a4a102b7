import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/bridge-process.ts';
import { shownText, OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Each chat works in a directory of its own choosing, within the roots the operator allows.
let world: TelegramWorld;
let outside: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  outside = await tempDir('bridge-outside-');
  // The work dir is made by the world; lay out projects inside it before the bridge reads them.
  world = await startTelegramWorld();
  await mkdir(join(world.workdir, 'api', 'src'), { recursive: true });
  await mkdir(join(world.workdir, 'web'), { recursive: true });
  await symlink(outside.path, join(world.workdir, 'escape'));
  world.env.BRIDGE_PROJECTS = `api=${join(world.workdir, 'api')},web=${join(world.workdir, 'web')}`;
  await world.restart();
});
afterAll(async () => {
  await world.stop();
  await outside.remove();
});

let nextChat = -1500;
const newChat = () => nextChat--;
const say = (chat: number, text: string) => world.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const answer = (chat: number, pattern: RegExp) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => pattern.test(shownText(m))), 20_000);

describe('projects: /cd and /project', () => {
  it('moves a chat within the roots: a fresh session there, shown in progress and announcements, kept across a restart', async () => {
    const chat = newChat();
    say(chat, 'say:before');
    await answer(chat, /^before/);
    say(chat, '/cd api/src');
    await answer(chat, new RegExp(`^📁 Now in ${join(world.workdir, 'api', 'src')}\\. The next message starts a fresh claude session`));
    say(chat, 'say:after');
    await answer(chat, /^after/);
    const calls = await world.cli.invocations();
    const after = calls.find((c) => c.prompt === 'say:after')!;
    expect(after.cwd).toBe(join(world.workdir, 'api', 'src'));
    expect(after.resume).toBeUndefined(); // a CLI's sessions belong to their directory
    const answered = world.telegram.botMessages(chat).filter((m) => shownText(m) === 'after');
    expect(answered.at(-1)!.text).toContain(`📁 ${join(world.workdir, 'api', 'src')}`); // the turn's stats line names where it ran

    say(chat, '/spawn "say:spawned-here"');
    const announced = await answer(chat, /^✅ #1 /);
    expect(announced.text).toContain(`📁 ${join(world.workdir, 'api', 'src')}`);
    expect((await world.cli.invocations()).find((c) => c.prompt === 'say:spawned-here')!.cwd).toBe(join(world.workdir, 'api', 'src'));

    await world.restart();
    say(chat, '/cd');
    await answer(chat, new RegExp(`^📁 ${join(world.workdir, 'api', 'src')}\\n`));
    say(chat, '/cd ..');
    await answer(chat, new RegExp(`^📁 Now in ${join(world.workdir, 'api')}\\.`));
  });

  it('refuses a way out of the roots, a missing directory and a file, and changes nothing', async () => {
    const chat = newChat();
    for (const [path, why] of [
      ['..', `${join(world.workdir, '..')} is outside the directories this bot may work in`],
      ['escape', `${join(world.workdir, 'escape')} \\(which is ${outside.path}\\) is outside the directories this bot may work in`],
      ['/etc', '/etc is outside the directories this bot may work in'],
      ['nowhere', `${join(world.workdir, 'nowhere')} does not exist`],
    ] as const) {
      say(chat, `/cd ${path}`);
      await answer(chat, new RegExp(`^⚠️ ${why.replace(/[.]/g, '\\.')}`));
    }
    say(chat, '/cd');
    await answer(chat, new RegExp(`^📁 ${world.workdir}\\n`));
  });

  it('/project lists the named projects and switches to one', async () => {
    const chat = newChat();
    say(chat, '/project');
    const list = await answer(chat, /^Projects\n/);
    expect(list.text).toContain(`• api: ${join(world.workdir, 'api')}`);
    say(chat, '/project web');
    await answer(chat, new RegExp(`^📁 Now in ${join(world.workdir, 'web')}\\.`));
    say(chat, '/project nope');
    await answer(chat, /^⚠️ No project "nope"\. Known: api, web\./);
  });
});
