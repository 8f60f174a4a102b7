import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';
import { startBridgeProcess, tempDir, type RunAs } from '../support/bridge-process.ts';
import { ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { cannotWall, escapeIn, type Escape } from './walls-support.ts';

// The default layout (data in ./data of the directory chats work in), with the bridge as a
// real process: its data directory and every chat's home lie inside the directory a CLI gets
// read-write, and an agent that tries to read them, or to plant a web bearer, finds nothing.
let world: TelegramWorld | undefined;
const removals: (() => Promise<void>)[] = [];
afterEach(async () => {
  await world?.stop();
  world = undefined;
  for (const remove of removals.splice(0)) await remove();
});

const CHAT = -4300;
const OTHER = -4301;
const { say, waitText: answer } = ownerIn(() => world!, CHAT, 40_000);
const other = ownerIn(() => world!, OTHER, 40_000);
const cannot = cannotSwitchUser() ?? cannotWall();

/** What an agent of the default layout tries: the bridge's files, every chat's home, a bearer planted for later. */
function attempts(work: string, homes: string): Record<string, string> {
  const data = join(work, 'data');
  return {
    FAKE_ESCAPE_READ: [join(data, 'chats.json'), join(data, 'transcripts'), join(data, 'audit.jsonl'), homes].join(','),
    FAKE_ESCAPE_WRITE: [join(data, 'web-sessions.json'), join(work, 'made.txt')].join(','),
  };
}

/** The other chat has had a turn: its home and the bridge's files are there to be reached. */
async function otherChatWorked(homes: string): Promise<void> {
  other.say('hello from the other chat');
  await other.waitText(/^echo: hello from the other chat/);
  await expect
    .poll(async () => (await readdir(homes).catch(() => [] as string[])).some((name) => name.includes(String(OTHER))), { timeout: 20_000 })
    .toBe(true);
}

function expectNothingReached(seen: Escape, work: string, homes: string): void {
  const data = join(work, 'data');
  // Masked, not merely closed to its uid: nothing of it is there inside.
  for (const path of [join(data, 'chats.json'), join(data, 'transcripts'), join(data, 'audit.jsonl'), homes])
    expect(seen.read[path]).toMatch(/^refused: ENOENT/);
  expect(seen.read[data]).toMatch(/^(refused: \w+|ok: empty)$/);
  expect(seen.write[join(data, 'web-sessions.json')]).toMatch(/^refused: /);
  // Its own directory is still its own.
  expect(seen.write[join(work, 'made.txt')]).toBe('ok: ');
}

async function cdIntoDataRefused(work: string): Promise<void> {
  say('/cd data');
  await answer(/holds the bridge's own state/);
  say('/cd data/transcripts');
  await answer(/data\/transcripts.*holds the bridge's own state/);
  say('/cd');
  await answer(new RegExp(`^📁 ${work}\\n`));
}

describe('a layout that gives chats the bridge’s state', () => {
  it('stops the start in one line saying how to fix it (status 78)', async () => {
    const work = await tempDir('inside-data-');
    removals.push(() => work.remove());
    const data = join(work.path, 'data');
    await mkdir(data, { mode: 0o700 });
    const bridge = startBridgeProcess({ BRIDGE_DATA_DIR: data, BRIDGE_WORKDIR: data }, ['--console']);
    expect(await bridge.exited).toMatchObject({ code: 78 });
    expect(bridge.stderr().trim()).toBe(
      `jsonl-bridge: BRIDGE_WORKDIR: ${data} is inside ${data}, where the bridge keeps its own state (data directory, sandbox homes, agent space), which no agent may reach; choose a directory outside it, or move BRIDGE_DATA_DIR elsewhere`,
    );
  });
});

describe.skipIf(cannotSwitchUser())('a data directory the agent user can enter', () => {
  it('stops the start in one line saying how to close it (status 78)', async () => {
    const scratch = await tempDir('open-data-');
    removals.push(() => scratch.remove());
    await chmod(scratch.path, 0o755);
    const data = join(scratch.path, 'data');
    await mkdir(data);
    // The bridge makes it 0700 at each start, which closes a group's or an ACL's way in, not an owner's.
    const { uid, gid } = agentIds()!;
    await chown(data, uid, gid);
    const bridge = startBridgeProcess({ BRIDGE_DATA_DIR: data, BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_WORKDIR: scratch.path, BRIDGE_SANDBOX: 'off' }, [
      '--console',
    ]);
    expect(await bridge.exited).toMatchObject({ code: 78 });
    expect(bridge.stderr().trim()).toMatch(
      new RegExp(`^jsonl-bridge: BRIDGE_DATA_DIR: ${data} is open to the agent user ${AGENT_USER}, who must never read it: `),
    );
  });
});

describe.skipIf(cannot)(`the bridge's state in the default layout, out of its agents' reach (${cannot ?? AGENT_USER})`, () => {
  it('a bridge that is not root, its CLIs in walls as its own user: the data directory and the homes in the working directory are masked, and /cd refuses them', async () => {
    const ids = agentIds()!;
    const asUser: RunAs = ids;
    // A plain user's bridge: its own home, its project (a git repository) with ./data in it.
    const home = await tempDir('plain-home-');
    const work = await tempDir('plain-work-');
    removals.push(
      () => home.remove(),
      () => work.remove(),
    );
    await execa('git', ['init', '-q', '-b', 'main', work.path]);
    await writeFile(join(work.path, 'README.md'), 'a project\n');
    await execa('git', ['-c', 'user.name=Test', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first'], { cwd: work.path });
    await execa('chown', ['-R', `${ids.uid}:${ids.gid}`, home.path, work.path]);
    const data = join(work.path, 'data');
    const homes = join(data, 'homes');
    world = await startTelegramWorld(
      { HOME: home.path, BRIDGE_SANDBOX: 'bwrap', BRIDGE_WORKDIR: work.path, BRIDGE_DATA_DIR: data, ...attempts(work.path, homes) },
      { runAs: asUser },
    );
    expect(world.bridge.log()).toContain(`sandbox: every CLI runs in a bubblewrap sandbox as the bridge’s own user (uid ${ids.uid})`);
    expect(world.bridge.log()).toContain('agents run as the bridge’s own user, in walls that hide its environment, its data directory');
    await otherChatWorked(homes);
    expect(existsSync(join(data, 'chats.json'))).toBe(true);

    say('escape');
    const seen = escapeIn((await answer(/^\{"keys"/)).text!);
    expectNothingReached(seen, work.path, homes);
    expect(await readFile(join(data, 'web-sessions.json'), 'utf8').catch(() => 'none')).not.toContain('escaped');
    await cdIntoDataRefused(work.path);

    // A run's worktree is kept in the data directory here: it is its directory, and still nothing else of the data is.
    say('/spawn --worktree "escape"');
    const run = escapeIn((await answer(/^✅ #1/, 60_000)).text!);
    expect(run.read[join(data, 'chats.json')]).toMatch(/^refused: ENOENT/);
    expect(run.read[homes]).toMatch(/^refused: ENOENT/);
    expect(run.write[join(data, 'web-sessions.json')]).toMatch(/^refused: /);
  }, 180_000);

  it('root with BRIDGE_AGENT_USER: its data directory in the project is masked too, the homes are not in sight, and /cd refuses the data directory', async () => {
    const ids = agentIds()!;
    const project = await sharedRepo(ids.gid);
    removals.push(() => project.remove());
    const data = join(project.path, 'data');
    const homes = join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes');
    await mkdir(data, { mode: 0o700 });
    world = await startTelegramWorld({
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      BRIDGE_WORKDIR: project.path,
      BRIDGE_DATA_DIR: data,
      ...attempts(project.path, homes),
    });
    await chown(world.cli.dir, ids.uid, ids.gid);
    await otherChatWorked(homes);

    say('escape');
    const seen = escapeIn((await answer(/^\{"keys"/)).text!);
    expectNothingReached(seen, project.path, homes);
    await cdIntoDataRefused(project.path);
  }, 180_000);
});
