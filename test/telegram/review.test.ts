import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../support/fake-telegram/message-view.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Reviewing a --worktree run from the chat: its announcement's Diff, Merge and Discard, and
// /diff, /merge, /discard; a real bridge process, the fake Bot API, the fake CLI, real git.
const BOB = 222;
let world: TelegramWorld;
// The machine's git configuration must not count: the bridge commits a merge as itself when the checkout names nobody.
const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
beforeAll(async () => (world = await startTelegramWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${BOB}`, ...GIT_ENV })));
afterAll(() => world.stop());

const git = async (cwd: string, ...args: string[]) =>
  (
    await execa('git', args, {
      cwd,
      env: { ...GIT_ENV, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' },
    })
  ).stdout;

let nextChat = -2800;
const say = (chatId: number, text: string, userId = OWNER) =>
  world.telegram.sendText({ chatId, userId, text, chatType: 'group', firstName: userId === OWNER ? 'Ada' : 'Bob' });
const shown = (m: FakeMessage) => m.text ?? m.caption ?? '';
const waitFor = (chatId: number, pattern: RegExp, timeout = 20_000) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chatId).find((m) => pattern.test(shown(m))), timeout);
const data = (message: FakeMessage, text: RegExp) => {
  const button = message.buttons.find((b) => text.test(b.text));
  if (!button || !('callback_data' in button)) throw new Error(`no button ${text} on: ${shown(message)}`);
  return button.callback_data;
};
const press = (chatId: number, message: FakeMessage, text: RegExp, userId = OWNER) =>
  world.telegram.pressButton({ chatId, messageId: message.messageId, data: data(message, text), userId, firstName: userId === OWNER ? 'Ada' : 'Bob' });

/** A chat working in a fresh repository of its own (on `main`, one commit of `files`). */
async function repoChat(name: string, files: Record<string, string> = { 'README.md': 'hello\n' }): Promise<{ chat: number; repo: string }> {
  const chat = nextChat--;
  const repo = join(world.workdir, name);
  await mkdir(repo);
  await git(repo, 'init', '--quiet', '--initial-branch=main');
  for (const [file, content] of Object.entries(files)) await writeFile(join(repo, file), content);
  await git(repo, 'add', '--all');
  await git(repo, 'commit', '--quiet', '-m', 'first');
  say(chat, `/cd ${name}`);
  await waitFor(chat, /^📁 Now in /);
  return { chat, repo };
}

/** Spawns a --worktree run and waits for its announcement. */
async function worktreeRun(chat: number, label: string, task: string, userId = OWNER): Promise<FakeMessage> {
  say(chat, `/spawn --worktree --label ${label} "${task}"`, userId);
  return waitFor(chat, new RegExp(`^✅ #\\d+ ${label}`));
}

/** The branch a run's announcement names. */
const branchOf = (announcement: FakeMessage) => /🌿 Branch (bridge\/\S+)/.exec(shown(announcement))![1]!;

/** What a refused merge must leave as it was. */
async function checkout(repo: string) {
  return { head: await git(repo, 'rev-parse', 'HEAD'), status: await git(repo, 'status', '--porcelain=v1', '--untracked-files=all') };
}

async function auditLines(): Promise<Record<string, string>[]> {
  const text = await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>);
}

/** Hooks that would leave a mark for each time git ran them. */
async function plantHooks(repo: string, marks: string, hooks: string[]): Promise<void> {
  await mkdir(marks, { recursive: true });
  for (const hook of hooks) {
    await writeFile(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch "${marks}/${hook}"\n`);
    await chmod(join(repo, '.git', 'hooks', hook), 0o755);
  }
}

describe('a run in a worktree', () => {
  it('is announced with Diff, Merge and Discard; Diff sends its branch against its base as a .diff file', async () => {
    const { chat, repo } = await repoChat('diffed');
    const done = await worktreeRun(chat, 'Feature', 'write:feature.txt commit dirty:notes.txt say:done');
    expect(done.buttons.map((b) => b.text)).toEqual(['📄 Diff', '🔀 Merge', '🗑 Discard']);
    const branch = branchOf(done);

    press(chat, done, /Diff/);
    const file = await world.telegram.waitForBotMessage(chat, (m) => m.document !== undefined, 20_000);
    expect(file.replyToMessageId).toBe(done.messageId);
    expect(file.document!.fileName).toBe(`${branch.replace('/', '-')}.diff`);
    const base = await git(repo, 'rev-parse', 'main');
    expect(file.document!.bytes.toString()).toBe(`${await git(repo, 'diff', base, branch)}\n`);
    expect(file.document!.bytes.toString()).toContain('+++ b/feature.txt\n@@ -0,0 +1 @@\n+written by the fake agent\n');
    expect(file.caption).toBe(
      `📄 #1 Feature · ${branch} against ${base.slice(0, 7)}: 1 commit, 1 file changed (+1 −0)\n` +
        '1 file left uncommitted in its worktree is not included (nor merged).',
    );
    await world.telegram.waitFor(() => world.telegram.callbackAnswers.some((a) => a.text === '📄 Diff sent'));
  });

  it('merges into the branch checked out in the chat’s checkout, with none of its hooks run, removes the worktree, and audits who pressed', async () => {
    const { chat, repo } = await repoChat('merged');
    const done = await worktreeRun(chat, 'Merged', 'write:feature.txt commit');
    const branch = branchOf(done);
    const worktree = /\(worktree (\S+)\)/.exec(shown(done))![1]!;
    const marks = join(world.workdir, 'merged-marks');
    await plantHooks(repo, marks, ['pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-merge', 'post-commit', 'reference-transaction']);
    const before = await git(repo, 'rev-parse', 'HEAD');
    const tip = await git(repo, 'rev-parse', branch);

    press(chat, done, /Merge/);
    const merged = await waitFor(chat, /^🔀 Merged #1/);
    const commit = await git(repo, 'rev-parse', 'HEAD');
    expect(shown(merged)).toBe(
      `🔀 Merged #1 Merged into main in ${repo} as ${commit.slice(0, 7)}: 1 commit, 1 file changed (+1 −0).\nIts worktree and branch ${branch} are removed.`,
    );
    expect(await readFile(join(repo, 'feature.txt'), 'utf8')).toBe('written by the fake agent\n');
    expect(await git(repo, 'log', '-1', '--format=%P%n%s%n%cn')).toBe(
      `${before} ${tip}\nMerge ${branch} (run #1 Merged, merged from the chat by Ada)\njsonl-bridge`,
    );
    expect(await git(repo, 'status', '--porcelain')).toBe('');
    expect(await git(repo, 'branch', '--list', branch)).toBe('');
    expect(existsSync(worktree)).toBe(false);
    expect(await readdir(marks)).toEqual([]);
    await expect
      .poll(async () => (await auditLines()).find((line) => line.event === 'merge'))
      .toMatchObject({ chat: `telegram:${chat}`, by: `Ada (telegram:${OWNER})`, decision: 'merged', detail: expect.stringContaining(`${branch} into main`) });

    press(chat, done, /Merge/);
    await waitFor(chat, new RegExp(`^⚠️ #1 Merged's worktree and branch ${branch} were removed \\(merged into main by Ada`));
  });

  it('merges with no signing program of the repository run, though its config asks every commit to be signed and verified', async () => {
    const { chat, repo } = await repoChat('signed');
    const done = await worktreeRun(chat, 'Signed', 'write:feature.txt commit');
    const marks = join(world.workdir, 'signed-marks');
    await mkdir(marks);
    const program = join(world.workdir, 'signed-gpg.sh');
    await writeFile(program, `#!/bin/sh\ntouch "${marks}/gpg-ran"\nexit 1\n`);
    await chmod(program, 0o755);
    for (const [key, value] of <[string, string][]>[
      ['commit.gpgsign', 'true'],
      ['tag.gpgsign', 'true'],
      ['merge.verifySignatures', 'true'],
      ['log.showSignature', 'true'],
      ['gpg.program', program],
      ['gpg.format', 'openpgp'],
      ['user.signingkey', 'ABCDEF'],
    ])
      await git(repo, 'config', key, value);

    press(chat, done, /Merge/);
    await waitFor(chat, /^🔀 Merged #1 Signed into main/);
    expect(await readFile(join(repo, 'feature.txt'), 'utf8')).toBe('written by the fake agent\n');
    expect(await readdir(marks)).toEqual([]);
  });

  it('refuses to merge, or to make a worktree, where the repository’s own config names a filter or merge driver, saying which, changing nothing', async () => {
    const { chat, repo } = await repoChat('filtered', { 'README.md': 'hello\n', '.gitattributes': '* filter=mark merge=mark\n' });
    await worktreeRun(chat, 'Filtered', 'write:feature.txt commit');
    const marks = join(world.workdir, 'filtered-marks');
    await mkdir(marks);
    const included = join(world.workdir, 'filtered-drivers.gitconfig');
    await writeFile(included, `[merge "mark"]\n\tdriver = touch ${marks}/merge-driver-ran && false\n`);
    await git(repo, 'config', 'filter.mark.smudge', `sh -c 'touch ${marks}/smudge-ran; cat'`);
    const before = await checkout(repo);

    say(chat, '/merge 1');
    const refused = await waitFor(chat, /was not merged/);
    expect(shown(refused)).toBe(
      `⚠️ #1 Filtered was not merged: the repository's git config sets filter.mark.smudge (in .git/config), a program git would run while merging: the bridge runs no program a repository names. Remove it from .git/config or merge by hand. Nothing was changed.`,
    );
    // A driver in a file the repository's config includes counts as the repository's.
    await git(repo, 'config', '--unset', 'filter.mark.smudge');
    await git(repo, 'config', 'include.path', included);
    say(chat, '/merge 1');
    await waitFor(chat, /sets merge\.mark\.driver/);
    expect(shown(world.telegram.botMessages(chat).at(-1)!)).toContain(`sets merge.mark.driver (in ${included})`);
    expect(await checkout(repo)).toEqual(before);
    expect(await readdir(marks)).toEqual([]);

    say(chat, '/spawn --worktree --label Another "say:never"');
    const notMade = await waitFor(chat, /while checking files out/);
    expect(shown(notMade)).toContain(`sets merge.mark.driver (in ${included}), a program git would run while checking files out`);
    expect(await readdir(marks)).toEqual([]);
    await expect
      .poll(async () => (await auditLines()).filter((line) => line.event === 'merge' && line.chat === `telegram:${chat}`).map((line) => line.decision))
      .toEqual(['refused: programs', 'refused: programs']);
  });

  it('/merge refuses a checkout with uncommitted changes, then a conflict, changing nothing either time', async () => {
    const { chat, repo } = await repoChat('refused', { 'README.md': 'hello\n', 'other.txt': 'other\n' });
    await worktreeRun(chat, 'Clash', 'write:README.md commit');
    await writeFile(join(repo, 'README.md'), 'main changes it too\n');
    await git(repo, 'commit', '--quiet', '-am', 'main changes README');
    await writeFile(join(repo, 'other.txt'), 'edited, not committed\n');
    const before = await checkout(repo);

    say(chat, '/merge 1');
    const dirty = await waitFor(chat, /was not merged/);
    expect(shown(dirty)).toBe(`⚠️ #1 Clash was not merged: ${repo} has uncommitted changes (other.txt): commit or stash them first. Nothing was changed.`);
    expect(await checkout(repo)).toEqual(before);

    await git(repo, 'checkout', '--', 'other.txt');
    const clean = await checkout(repo);
    say(chat, '/merge #1');
    const conflict = await waitFor(chat, /conflicts with/);
    expect(shown(conflict)).toMatch(/^⚠️ #1 Clash was not merged: bridge\/clash-[\w-]+ conflicts with main in README\.md\. Nothing was changed\.$/);
    expect(await checkout(repo)).toEqual(clean);
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('main changes it too\n');
    expect(existsSync(join(repo, '.git', 'MERGE_HEAD'))).toBe(false);
    await expect
      .poll(async () => (await auditLines()).filter((line) => line.event === 'merge' && line.chat === `telegram:${chat}`).map((line) => line.decision))
      .toEqual(['refused: dirty', 'refused: conflict']);
  });

  it('Discard asks before losing unmerged commits: Keep keeps them, the confirmation removes worktree and branch', async () => {
    const { chat, repo } = await repoChat('discarded');
    const done = await worktreeRun(chat, 'Doomed', 'write:work.txt commit');
    const branch = branchOf(done);
    const worktree = /\(worktree (\S+)\)/.exec(shown(done))![1]!;

    press(chat, done, /Discard/);
    const question = await waitFor(chat, /^🗑 Discard\? /);
    expect(shown(question)).toBe(`🗑 Discard? #1 Doomed: its branch ${branch} holds 1 commit merged nowhere else; discarding it loses them.`);
    expect(question.buttons.map((b) => b.text)).toEqual(['🗑 Discard 1 unmerged commit', 'Keep']);
    press(chat, question, /^Keep$/);
    await world.telegram.waitFor(() => /^Kept #1 Doomed/.test(shown(world.telegram.message(chat, question.messageId)!)));
    expect(world.telegram.message(chat, question.messageId)!.buttons).toEqual([]);
    expect(await git(repo, 'branch', '--list', branch)).not.toBe('');
    expect(existsSync(worktree)).toBe(true);

    say(chat, '/discard 1');
    const again = await world.telegram.waitFor(() =>
      world.telegram.botMessages(chat).find((m) => m.messageId > question.messageId && shown(m).startsWith('🗑 Discard? ')),
    );
    press(chat, again, /Discard 1 unmerged commit/);
    await world.telegram.waitFor(() => /^🗑 Discarded #1 Doomed/.test(shown(world.telegram.message(chat, again.messageId)!)));
    expect(shown(world.telegram.message(chat, again.messageId)!)).toBe(
      `🗑 Discarded #1 Doomed: its worktree and branch ${branch} are removed, with 1 unmerged commit.`,
    );
    expect(await git(repo, 'branch', '--list', branch)).toBe('');
    expect(existsSync(worktree)).toBe(false);
    expect(await git(repo, 'worktree', 'list', '--porcelain')).not.toContain(worktree);
    await expect
      .poll(async () => (await auditLines()).find((line) => line.event === 'discard' && line.chat === `telegram:${chat}`))
      .toMatchObject({
        by: `Ada (telegram:${OWNER})`,
        decision: 'discarded',
        detail: expect.stringContaining('(1 unmerged commit, 0 uncommitted files) (via button)'),
      });
  });

  it('only the owner or whoever started the run may merge or discard it; everyone in the chat may see its diff', async () => {
    const { chat, repo } = await repoChat('permissions');
    const adas = await worktreeRun(chat, 'Adas', 'write:a.txt commit');
    press(chat, adas, /Merge/, BOB);
    const refused = await waitFor(chat, /^⛔ /);
    expect(shown(refused)).toBe('⛔ Only an owner, an admin or Ada (who started it) may merge #1 Adas.');
    expect(existsSync(join(repo, 'a.txt'))).toBe(false);
    say(chat, '/discard 1', BOB);
    await world.telegram.waitFor(() => world.telegram.botMessages(chat).filter((m) => shown(m).startsWith('⛔ Only an owner')).length === 2);
    expect(await git(repo, 'branch', '--list', branchOf(adas))).not.toBe('');
    press(chat, adas, /Diff/, BOB);
    await world.telegram.waitForBotMessage(chat, (m) => m.document?.fileName.endsWith('.diff') === true, 20_000);

    const bobs = await worktreeRun(chat, 'Bobs', 'write:b.txt commit', BOB);
    press(chat, bobs, /Merge/, BOB);
    await waitFor(chat, /^🔀 Merged #2 Bobs into main/);
    expect(existsSync(join(repo, 'b.txt'))).toBe(true);
    await expect
      .poll(async () => (await auditLines()).filter((line) => line.chat === `telegram:${chat}`).map((line) => [line.event, line.by, line.decision]))
      .toEqual(
        expect.arrayContaining([
          ['merge', `Bob (telegram:${BOB})`, 'refused: not allowed'],
          ['discard', `Bob (telegram:${BOB})`, 'refused: not allowed'],
          ['merge', `Bob (telegram:${BOB})`, 'merged'],
        ]),
      );
  });

  it('answers clearly for an unknown run, a run without a worktree, and a branch with nothing committed', async () => {
    const { chat } = await repoChat('plain');
    say(chat, '/diff 9');
    await waitFor(chat, /^⚠️ No run "9" in this chat\. \/subagents lists them\.\nUsage: \/diff <#\|id>$/);
    say(chat, '/merge');
    await waitFor(chat, /^⚠️ Which run\? Give its #number or id/);

    say(chat, '/spawn --label Plain "say:plain"');
    const plain = await waitFor(chat, /^✅ #1 Plain/);
    expect(plain.buttons).toEqual([]);
    say(chat, '/merge 1');
    await waitFor(chat, /^⚠️ #1 Plain did not work in a worktree \(\/spawn --worktree makes one\), so there is nothing to review\.$/);

    const idle = await worktreeRun(chat, 'Idle', 'say:nothing');
    press(chat, idle, /Diff/);
    await waitFor(chat, /^#2 Idle: bridge\/idle-[\w-]+ has no committed changes\.$/);
    press(chat, idle, /Merge/);
    await waitFor(chat, /^⚠️ #2 Idle was not merged: main already has every commit of bridge\/idle-[\w-]+\. Nothing was changed\.$/);
  });
});
