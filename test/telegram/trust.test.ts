import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import type { AuditEntry } from '../../src/kernel/audit/audit-log.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// /trust through the fake Bot API, with the bridge as a real process and the fake CLI in
// place of claude: what its command line says, who may change it, and what a restart keeps.
let world: TelegramWorld;
const MEMBER = 222;
const CHAT = -1000;
const UNTRUSTED = ['--setting-sources', 'user', '--strict-mcp-config'];
const { say, waitText } = ownerIn(() => world, CHAT);
const memberSays = (text: string) => world.telegram.sendText({ chatId: CHAT, userId: MEMBER, text, firstName: 'Bob' });

/** The argv of the turn that answered `prompt`. */
async function argvOf(prompt: string): Promise<string[]> {
  say(prompt);
  await waitText(new RegExp(`^echo: ${prompt}`));
  return (await world.cli.invocations()).findLast((call) => call.prompt === prompt)!.argv;
}
const ignoresRepository = (argv: string[]) => UNTRUSTED.every((flag) => argv.includes(flag));

beforeAll(async () => {
  world = await startTelegramWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${MEMBER}` });
  await mkdir(join(world.workdir, 'sub'));
});
afterAll(() => world.stop());

describe('/trust', () => {
  it("untrusted, a turn's CLI is told to ignore what the directory ships, and /trust says so", async () => {
    expect(ignoresRepository(await argvOf('before trust'))).toBe(true);
    say('/trust');
    expect((await waitText(/is not trusted/)).text).toContain('/trust on|off changes it');
  });

  it('only the owner may change it; anyone allowed may look', async () => {
    memberSays('/trust on');
    expect((await waitText(/needs an owner/)).text).toMatch(/first id in BRIDGE_ALLOWED_USERS/);
    expect(ignoresRepository(await argvOf('after a member tried'))).toBe(true);
  });

  it('trusts the directory and everything below it, for the next turn on, across a restart', async () => {
    say('/trust on');
    await waitText(/^🛡 Trusted .* and everything below it, for every chat/);
    expect(ignoresRepository(await argvOf('trusted now'))).toBe(false);
    await world.restart();
    say('/cd sub');
    await waitText(/sub/);
    expect(ignoresRepository(await argvOf('in a subdirectory'))).toBe(false);
    say('/status');
    expect((await waitText(/Trust: /)).text).toMatch(/Trust: trusted \(.* and everything below it/);
  });

  it('safe mode never trusts', async () => {
    say('/permissions safe');
    await waitText(/Permissions: safe/);
    expect(ignoresRepository(await argvOf('safe and trusted'))).toBe(true);
    say('/permissions bypass');
    await waitText(/Permissions: bypass/);
  });

  it('/trust off in a subdirectory withdraws the trust covering it', async () => {
    say('/trust off');
    expect((await waitText(/no longer trusted/)).text).toMatch(/\(it covered .*sub\)/);
    // Who trusted what, and who withdrew it, is in the audit log.
    const trustEntries = async () =>
      (await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditEntry)
        .filter((entry) => entry.event === 'trust' || entry.event === 'untrust');
    const workdir = await realpath(world.workdir);
    await expect.poll(trustEntries).toMatchObject([
      { event: 'trust', by: String(OWNER), detail: workdir },
      { event: 'untrust', by: String(OWNER), detail: workdir },
    ]);
    expect(ignoresRepository(await argvOf('withdrawn'))).toBe(true);
  });

  it('a link out of a trusted directory leads to an untrusted one', async () => {
    const outside = join(world.workdir, 'other');
    await mkdir(outside);
    await writeFile(join(outside, 'README'), 'elsewhere\n');
    await symlink(outside, join(world.workdir, 'sub', 'elsewhere'));
    say('/trust on'); // trusts sub, where the chat now works
    await waitText(/^🛡 Trusted .*sub and everything below it/);
    say('/cd elsewhere');
    await waitText(/other/);
    expect(ignoresRepository(await argvOf('through the link'))).toBe(true);
  });
});
